package io.jsalt.bench.harness;

import io.jsalt.config.MasterConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A real {@code jsalt-master} JVM in a run folder, on free loopback ports, started the way bin/jsalt-master
 * starts it (same main class, the daemon's JVM options), so its CPU, memory and descriptors are the
 * product's. The caller pre-accepts keys by writing into {@link #pkiDir()}{@code /minions}.
 */
public final class MasterProcess implements AutoCloseable {
    private final Path root;
    private final int publishPort;
    private final int retPort;
    private final List<String> jvmOptions;
    private final List<String> extraConfig;
    private Process process;

    public MasterProcess(Path root, List<String> jvmOptions, List<String> extraConfig) throws IOException {
        this.root = root;
        this.publishPort = freePort();
        int ret = freePort();
        while (ret == publishPort) {
            ret = freePort();
        }
        this.retPort = ret;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.extraConfig = List.copyOf(extraConfig);
    }

    public Path configDir() {
        return root.resolve("conf/master");
    }

    public Path pkiDir() {
        return root.resolve("etc/jsalt/pki/master");
    }

    public Path cachedir() {
        return root.resolve("var/cache/jsalt/master");
    }

    public Path logFile() {
        return root.resolve("var/log/jsalt/master");
    }

    public int publishPort() {
        return publishPort;
    }

    public int retPort() {
        return retPort;
    }

    public MasterConfig config() {
        return MasterConfig.load(configDir());
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    public ProcSample sample() {
        return process == null ? new ProcSample(0, 0, 0, 0) : ProcSample.of(process.pid());
    }

    /** Writes the config and starts the master; returns when its log says it is up. */
    public void start() throws IOException {
        List<String> lines = new ArrayList<>(List.of("root_dir: " + root, "interface: 127.0.0.1",
                "publish_port: " + publishPort, "ret_port: " + retPort, "log_level: info", "timeout: 30"));
        lines.addAll(extraConfig);
        Files.createDirectories(configDir());
        Files.writeString(configDir().resolve("master"), String.join("\n", lines) + "\n");
        Files.createDirectories(pkiDir().resolve("minions"));
        launch();
    }

    /** Stops the master gracefully (TERM) and starts it again with the same config, keys and ports. */
    public void restart() throws IOException {
        JavaProcess.stop(process, 20);
        launch();
    }

    /** Kills the master at once (SIGKILL), as a crash or {@code kill -9} would: its minions see the connections drop. */
    public void kill() throws IOException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while killing the master", e);
            }
        }
    }

    /** Starts the master process and waits until it answers on its request port. */
    private void launch() throws IOException {
        int upsBefore = countUps();
        process = JavaProcess.start(jvmOptions, "io.jsalt.cli.daemon.MasterDaemon", List.of("-c", configDir().toString()),
                root.resolve("console/master.out"));
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (countUps() <= upsBefore) {
            if (!process.isAlive()) {
                throw new IOException("the master exited with " + process.exitValue() + "; see " + root.resolve("console/master.out"));
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("the master did not come up within 60 s; see " + logFile());
            }
            pause(50);
        }
    }

    private int countUps() throws IOException {
        if (!Files.exists(logFile())) {
            return 0;
        }
        return Files.readString(logFile()).split("master up", -1).length - 1;
    }

    /**
     * The harness's one fixed wait: polling a process or log for a state the process itself cannot signal
     * (the benchmark measures the real daemons, so there is no hook to wait on), and settling before RSS reads.
     */
    public static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        JavaProcess.stop(process, 20);
    }
}
