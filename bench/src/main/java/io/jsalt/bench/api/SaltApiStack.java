package io.jsalt.bench.api;

import io.jsalt.bench.harness.JavaProcess;
import io.jsalt.bench.harness.MasterProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Real salt-api + salt-master + N salt-minions 3006.8, from {@code ../shared/salt/salt} (Debian's python3). */
public final class SaltApiStack implements ApiStack {
    private final Process master;
    private final List<Process> minions;
    private final Process api;
    private final int port;

    private SaltApiStack(Process master, List<Process> minions, Process api, int port) {
        this.master = master;
        this.minions = minions;
        this.api = api;
        this.port = port;
    }

    public static SaltApiStack start(Path salt, Path root, int minionCount) throws IOException {
        Map<String, String> env = env(salt);
        Path users = Files.writeString(Files.createDirectories(root).resolve("users"), USER + ":" + PASSWORD + "\n");
        int port = MasterProcess.freePort();
        int publish = MasterProcess.freePort();
        int ret = MasterProcess.freePort();
        List<String> config = new ArrayList<>(List.of("root_dir: " + root.resolve("master"), "interface: 127.0.0.1",
                "publish_port: " + publish, "ret_port: " + ret, "worker_threads: 5", "auto_accept: True", "log_level_logfile: warning"));
        config.addAll(ApiStack.apiConfig(port, users));
        Path conf = Files.createDirectories(root.resolve("master/conf"));
        Files.writeString(conf.resolve("master"), String.join("\n", config) + "\n");
        List<Process> minions = new ArrayList<>();
        Process master = null;
        Process api = null;
        try {
            master = spawn(env, "salt-master", List.of("-c", conf.toString()), root.resolve("console/salt-master.out"));
            for (int i = 0; i < minionCount; i++) {
                String id = String.format("bench-%05d", i);
                Path dir = root.resolve("m-" + id);
                Files.createDirectories(dir.resolve("conf"));
                Files.writeString(dir.resolve("conf/minion"), String.join("\n", "root_dir: " + dir, "id: " + id, "master: 127.0.0.1",
                        "master_port: " + ret, "publish_port: " + publish, "enable_fqdns_grains: False", "acceptance_wait_time: 1",
                        "log_level_logfile: warning") + "\n");
                minions.add(spawn(env, "salt-minion", List.of("-c", dir.resolve("conf").toString(), "--disable-keepalive"),
                        root.resolve("console/" + id + ".out")));
            }
            api = spawn(env, "salt-api", List.of("-c", conf.toString()), root.resolve("console/salt-api.out"));
            return new SaltApiStack(master, minions, api, port);
        } catch (IOException | RuntimeException e) {
            JavaProcess.stop(api, 10);
            minions.forEach(p -> JavaProcess.stop(p, 10));
            JavaProcess.stop(master, 10);
            throw e;
        }
    }

    private static Process spawn(Map<String, String> env, String tool, List<String> args, Path console) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(env.get("PYTHON"), Path.of(env.get("SALT_SCRIPTS"), tool).toString()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("PYTHONPATH", env.get("PYTHONPATH"));
        pb.environment().put("PYTHONWARNINGS", env.getOrDefault("PYTHONWARNINGS", "ignore"));
        Files.createDirectories(console.getParent());
        return pb.redirectErrorStream(true).redirectOutput(console.toFile()).start();
    }

    /** {@code salt --print-env}: the python and paths the launcher uses (it installs what Salt needs on first use). */
    private static Map<String, String> env(Path salt) throws IOException {
        Process p = new ProcessBuilder(salt.toString(), "--print-env").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("salt --print-env failed:\n" + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (String line : out.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0 && line.substring(0, eq).matches("[A-Z_]+")) {
                env.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return env;
    }

    @Override
    public String name() {
        return "salt-api + salt-master 3006.8";
    }

    @Override
    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    @Override
    public List<ProcessHandle> apiProcesses() {
        return List.of(api.toHandle());
    }

    @Override
    public List<ProcessHandle> masterProcesses() {
        return List.of(master.toHandle());
    }

    @Override
    public void close() {
        JavaProcess.stop(api, 10);
        minions.parallelStream().forEach(p -> JavaProcess.stop(p, 10));
        JavaProcess.stop(master, 15);
    }
}
