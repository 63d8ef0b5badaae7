package io.jsalt.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code jsalt-master} and {@code jsalt-minion} with {@code -d}, as an operator or a systemd unit
 * does, in a {@link Cluster}'s folder and ports. A detached daemon is no child of the test JVM, so
 * {@link Cluster#close()} cannot see it: every pid read here is killed on {@link #close()}.
 */
final class Daemons implements AutoCloseable {
    static final String MASTER = "io.jsalt.cli.daemon.MasterDaemon";
    static final String MINION = "io.jsalt.cli.daemon.MinionDaemon";

    private final Cluster cluster;
    private final List<Long> pids = new ArrayList<>();

    Daemons(Cluster cluster) {
        this.cluster = cluster;
    }

    Path writeMasterConfig(String... extraLines) throws IOException {
        List<String> lines = new ArrayList<>(List.of("root_dir: " + cluster.root, "interface: 127.0.0.1",
                "publish_port: " + cluster.publishPort, "ret_port: " + cluster.retPort, "worker_threads: 2",
                "log_level: info", "timeout: 10"));
        lines.addAll(List.of(extraLines));
        return write(cluster.masterConfigDir(), "master", lines);
    }

    Path writeMinionConfig(String id, String... extraLines) throws IOException {
        List<String> lines = new ArrayList<>(List.of("root_dir: " + cluster.root, "id: " + id, "master: 127.0.0.1",
                "master_port: " + cluster.retPort, "publish_port: " + cluster.publishPort, "pki_dir: /etc/jsalt/pki/" + id,
                "cachedir: /var/cache/jsalt/" + id, "sock_dir: /var/run/jsalt/" + id, "log_file: /var/log/jsalt/" + id,
                "log_level: info", "acceptance_wait_time: 0.5", "random_reauth_delay: 1", "auth_timeout: 3"));
        lines.addAll(List.of(extraLines));
        return write(minionConfigDir(id), "minion", lines);
    }

    Path minionConfigDir(String id) {
        return cluster.root.resolve("conf/" + id);
    }

    /**
     * As bin/jsalt-env starts a daemon: with SIGHUP's default disposition, so that a suite run under nohup
     * still gives the daemons a HUP to answer.
     */
    private static final List<String> LAUNCHER = List.of("env", "--default-signal=HUP");

    /** {@code jsalt-master -c DIR -d [args]}: returns when the parent has exited. */
    Cluster.Result startMaster(String... args) throws IOException, InterruptedException {
        return cluster.run(LAUNCHER, MASTER, with(cluster.masterConfigDir(), args));
    }

    Cluster.Result startMinion(String id, String... args) throws IOException, InterruptedException {
        return cluster.run(LAUNCHER, MINION, with(minionConfigDir(id), args));
    }

    /** The master's default pid file: {@code pidfile} under root_dir. */
    Path masterPidFile() {
        return cluster.root.resolve("var/run/jsalt/jsalt-master.pid");
    }

    /** A minion's default pid file: in its sock_dir. */
    Path minionPidFile(String id) {
        return cluster.root.resolve("var/run/jsalt/" + id + "/jsalt-minion.pid");
    }

    /** The pid in a pid file, remembered to be killed at the end. */
    long pid(Path pidFile) throws IOException {
        long pid = Long.parseLong(Files.readString(pidFile, StandardCharsets.US_ASCII).trim());
        pids.add(pid);
        return pid;
    }

    /** Sends a signal by name (HUP, USR2, TERM) with kill(1). */
    static void signal(long pid, String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new AssertionError("kill -" + name + " " + pid + " failed");
        }
    }

    private static String[] with(Path configDir, String... args) {
        List<String> all = new ArrayList<>(List.of("-c", configDir.toString()));
        all.addAll(List.of(args));
        return all.toArray(String[]::new);
    }

    /** Writes the lines, a later line replacing an earlier one with the same key (YAML refuses duplicates). */
    private static Path write(Path dir, String name, List<String> lines) throws IOException {
        java.util.Map<String, String> byKey = new java.util.LinkedHashMap<>();
        for (String line : lines) {
            byKey.put(line.substring(0, line.indexOf(':')), line);
        }
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(name), String.join("\n", byKey.values()) + "\n");
        return dir;
    }

    @Override
    public void close() {
        for (long pid : pids) {
            ProcessHandle.of(pid)
                    .filter(h -> h.info().commandLine().map(c -> c.contains("io.jsalt.cli.daemon")).orElse(true))
                    .ifPresent(h -> {
                        h.destroyForcibly();
                        try {
                            h.onExit().get(10, TimeUnit.SECONDS);
                        } catch (Exception e) {
                            // nothing more a test can do about a process SIGKILL did not end
                        }
                    });
        }
    }
}
