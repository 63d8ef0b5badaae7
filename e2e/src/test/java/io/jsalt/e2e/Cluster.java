package io.jsalt.e2e;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A master and minions as separate JVMs in a temp folder, on free loopback ports, driven through the
 * real command-line tools run as processes. Closing it kills every process it started.
 */
public final class Cluster implements AutoCloseable {
    public static final String CLASSPATH = System.getProperty("java.class.path");
    public static final String JAVA = ProcessHandle.current().info().command().orElse("java");

    public final Path root;
    public final int publishPort;
    public final int retPort;
    private Process master;
    private boolean masterFullJit;
    private final Map<String, Process> minions = new LinkedHashMap<>();
    private final List<Process> all = new ArrayList<>();

    public Cluster(Path root) throws IOException {
        this.root = root;
        this.publishPort = freePort();
        int ret = freePort();
        while (ret == publishPort) {
            ret = freePort();
        }
        this.retPort = ret;
    }

    public Path masterConfigDir() {
        return root.resolve("conf/master");
    }

    public Path masterPki() {
        return root.resolve("etc/jsalt/pki/master");
    }

    public Path masterLog() {
        return root.resolve("var/log/jsalt/master");
    }

    public Path minionPki(String id) {
        return root.resolve("etc/jsalt/pki/" + id);
    }

    public Path minionLog(String id) {
        return root.resolve("var/log/jsalt/" + id);
    }

    public void startMaster(String... extraConfigLines) throws IOException {
        List<String> lines = new ArrayList<>(List.of("root_dir: " + root, "interface: 127.0.0.1",
                "publish_port: " + publishPort, "ret_port: " + retPort, "worker_threads: 2", "log_level: info", "timeout: 10"));
        lines.addAll(List.of(extraConfigLines));
        write(masterConfigDir().resolve("master"), lines);
        master = spawn("master", "io.jsalt.cli.daemon.MasterDaemon", masterConfigDir());
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(masterLog())
                && Files.readString(masterLog()).contains("master up"));
    }

    public Process masterProcess() {
        return master;
    }

    public void stopMaster() throws InterruptedException {
        stop(master);
    }

    public Process startMinion(String id, String... extraConfigLines) throws IOException {
        Path dir = root.resolve("conf/" + id);
        List<String> lines = defaultMinionLines(id);
        lines.addAll(List.of(extraConfigLines));
        write(dir.resolve("minion"), lines);
        Process p = spawn(id, "io.jsalt.cli.daemon.MinionDaemon", dir);
        minions.put(id, p);
        return p;
    }

    /** Runs the master (from its next start) with the full JIT, for tests that load it with many minions. */
    public Cluster withFullJitMaster() {
        masterFullJit = true;
        return this;
    }

    /** Kills the master at once (SIGKILL), as a crash or {@code kill -9} would: no cleanup runs. */
    public void killMaster() throws InterruptedException {
        if (master != null && master.isAlive()) {
            master.destroyForcibly();
            master.waitFor(15, TimeUnit.SECONDS);
        }
    }

    /**
     * Starts the master again with the config file it had (same keys, same ports) and returns once its
     * log says it is up again.
     */
    public void restartMaster() throws IOException {
        String before = read(masterLog());
        int upsBefore = before.split("master up", -1).length;
        master = spawn("master", "io.jsalt.cli.daemon.MasterDaemon", masterConfigDir());
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            String now = read(masterLog());
            int ups = now.split("master up", -1).length;
            return ups > upsBefore || (ups > 1 && now.length() < before.length()); // appended to, or started afresh
        });
    }

    /** The master's sock_dir, where its local event bus listens. */
    public Path masterSockDir() {
        return root.resolve("var/run/jsalt/master");
    }

    public Path minionCachedir(String id) {
        return root.resolve("var/cache/jsalt/" + id);
    }

    private List<String> defaultMinionLines(String id) {
        return new ArrayList<>(List.of("root_dir: " + root, "id: " + id, "master: 127.0.0.1",
                "master_port: " + retPort, "publish_port: " + publishPort, "pki_dir: /etc/jsalt/pki/" + id,
                "cachedir: /var/cache/jsalt/" + id, "sock_dir: /var/run/jsalt/" + id, "log_file: /var/log/jsalt/" + id,
                "log_level: info", "acceptance_wait_time: 0.5", "random_reauth_delay: 1", "auth_timeout: 3"));
    }

    /** As {@link #startMinion}, but a {@code key: value} line replaces the default line of the same key. */
    public Process startMinionOverriding(String id, String... configLines) throws IOException {
        List<String> lines = defaultMinionLines(id);
        for (String line : configLines) {
            String key = line.substring(0, line.indexOf(':') + 1);
            lines.removeIf(l -> l.startsWith(key));
            lines.add(line);
        }
        write(root.resolve("conf/" + id).resolve("minion"), lines);
        Process p = spawn(id, "io.jsalt.cli.daemon.MinionDaemon", root.resolve("conf/" + id));
        minions.put(id, p);
        return p;
    }

    public Process minion(String id) {
        return minions.get(id);
    }

    public void stopMinion(String id) throws InterruptedException {
        stop(minions.get(id));
    }

    /** Runs a CLI tool to completion and returns its exit code and output. */
    public Result run(String mainClass, String... args) throws IOException, InterruptedException {
        return run(List.of(), mainClass, args);
    }

    /** As {@link #run(String, String...)}, with the java command run by {@code launcher} (e.g. env with options). */
    public Result run(List<String> launcher, String mainClass, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(launcher);
        cmd.addAll(List.of(JAVA, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", CLASSPATH, mainClass));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        all.add(p);
        byte[][] streams = new byte[2][];
        Thread err = new Thread(() -> {
            try {
                streams[1] = p.getErrorStream().readAllBytes();
            } catch (IOException e) {
                streams[1] = new byte[0];
            }
        });
        err.start();
        streams[0] = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("CLI did not finish: " + cmd);
        }
        err.join();
        return new Result(p.exitValue(), new String(streams[0], StandardCharsets.UTF_8), new String(streams[1], StandardCharsets.UTF_8));
    }

    public Result jsalt(String... args) throws IOException, InterruptedException {
        return run("io.jsalt.cli.jsalt.JsaltCommand", withConfig(args));
    }

    public Result key(String... args) throws IOException, InterruptedException {
        return run("io.jsalt.cli.key.KeyCommand", withConfig(args));
    }

    private String[] withConfig(String... args) {
        String[] full = new String[args.length + 2];
        full[0] = "-c";
        full[1] = masterConfigDir().toString();
        System.arraycopy(args, 0, full, 2, args.length);
        return full;
    }

    public record Result(int exitCode, String stdout, String stderr) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }

    private Process spawn(String name, String mainClass, Path configDir) throws IOException {
        Path console = root.resolve("console/" + name + ".out");
        Files.createDirectories(console.getParent());
        // C1 only starts fast; a master that must sign in hundreds of minions needs C2's RSA (about 8x faster)
        String jit = "master".equals(name) && masterFullJit ? "-XX:+TieredCompilation" : "-XX:TieredStopAtLevel=1";
        Process p = new ProcessBuilder(JAVA, "-XX:+UseSerialGC", jit, "-Xmx128m", "-cp", CLASSPATH,
                mainClass, "-c", configDir.toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(console.toFile()))
                .start();
        all.add(p);
        return p;
    }

    private static void stop(Process p) throws InterruptedException {
        if (p != null && p.isAlive()) {
            p.destroy();
            if (!p.waitFor(15, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    public static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            return "";
        }
    }

    private static void write(Path file, List<String> lines) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, String.join("\n", lines) + "\n");
    }

    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        for (Process p : all) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        for (Process p : all) {
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
