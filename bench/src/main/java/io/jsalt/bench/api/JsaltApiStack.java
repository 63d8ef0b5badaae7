package io.jsalt.bench.api;

import io.jsalt.bench.harness.DaemonJvm;
import io.jsalt.bench.harness.JavaProcess;
import io.jsalt.bench.harness.MasterProcess;
import io.jsalt.bench.harness.MinionProcesses;
import io.jsalt.bench.swarm.KeyCache;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** jsalt-api ({@code ApiDaemon}, bin/jsalt-api's main class) + jsalt-master + N jsalt-minion JVMs. */
public final class JsaltApiStack implements ApiStack {
    private final MasterProcess master;
    private final MinionProcesses minions;
    private final Process api;
    private final int port;

    private JsaltApiStack(MasterProcess master, MinionProcesses minions, Process api, int port) {
        this.master = master;
        this.minions = minions;
        this.api = api;
        this.port = port;
    }

    public static JsaltApiStack start(Path root, KeyCache keys, int minionCount) throws IOException {
        Path users = Files.writeString(Files.createDirectories(root).resolve("users"), USER + ":" + PASSWORD + "\n");
        int port = MasterProcess.freePort();
        List<String> config = new ArrayList<>(ApiStack.apiConfig(port, users));
        config.add("worker_threads: 5");
        MasterProcess master = new MasterProcess(root, DaemonJvm.MASTER, config);
        MinionProcesses minions = null;
        Process api = null;
        try {
            master.start();
            minions = MinionProcesses.start(master, root, keys, minionCount, DaemonJvm.MINION);
            // bin/jsalt-api's JVM options are the master's (bin/jsalt-env)
            api = JavaProcess.start(DaemonJvm.MASTER, "io.jsalt.cli.daemon.ApiDaemon", List.of("-c", master.configDir().toString()),
                    root.resolve("console/jsalt-api.out"));
            return new JsaltApiStack(master, minions, api, port);
        } catch (IOException | RuntimeException e) {
            JavaProcess.stop(api, 10);
            if (minions != null) {
                minions.close();
            }
            master.close();
            throw e;
        }
    }

    @Override
    public String name() {
        return "jsalt-api + jsalt-master";
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
        return List.of(ProcessHandle.of(master.pid()).orElseThrow());
    }

    @Override
    public void close() {
        JavaProcess.stop(api, 10);
        minions.close();
        master.close();
    }
}
