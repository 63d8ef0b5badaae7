package io.jsalt.bench.harness;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Real SaltStack 3006.8 (from {@code ../shared/salt/salt}) in a run folder: a salt-master on free loopback ports
 * that accepts every key, and salt-minion processes, each with its own {@code root_dir}, configured as the Salt
 * README asks for a fast start here. Closing stops them all (the minions first).
 */
public final class SaltProcesses implements AutoCloseable {
    private final Path salt;
    private final Path root;
    private final int publishPort;
    private final int retPort;
    private final List<Process> minions = new ArrayList<>();
    private final List<Path> socketDirs = new ArrayList<>();
    private Process master;

    public SaltProcesses(Path salt, Path root) throws IOException {
        this.salt = salt;
        this.root = root;
        this.publishPort = MasterProcess.freePort();
        int ret = MasterProcess.freePort();
        while (ret == publishPort) {
            ret = MasterProcess.freePort();
        }
        this.retPort = ret;
    }

    public Path masterConfigDir() {
        return root.resolve("master/conf");
    }

    public Path masterPkiDir() {
        return root.resolve("master/etc/salt/pki/master");
    }

    public Path masterCachedir() {
        return root.resolve("master/var/cache/salt/master");
    }

    public int retPort() {
        return retPort;
    }

    public long masterPid() {
        return master.pid();
    }

    public List<Process> minions() {
        return List.copyOf(minions);
    }

    /** Starts the salt-master (5 workers, as jsalt's bench master) and returns once its request port takes connections. */
    public void startMaster() throws IOException {
        write(masterConfigDir().resolve("master"), List.of("root_dir: " + root.resolve("master"), "interface: 127.0.0.1",
                "publish_port: " + publishPort, "ret_port: " + retPort, "worker_threads: 5", "auto_accept: True",
                "log_level_logfile: warning"));
        master = spawn(List.of("salt-master", "-c", masterConfigDir().toString()), root.resolve("console/salt-master.out"));
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!listening(retPort) || !listening(publishPort)) {
            if (!master.isAlive()) {
                throw new IOException("salt-master exited; see " + root.resolve("console/salt-master.out"));
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("salt-master did not listen within 90 s; see " + root.resolve("console/salt-master.out"));
            }
            MasterProcess.pause(200);
        }
    }

    /** Starts a salt-minion of id {@code id} against this salt-master. */
    public void startMinion(String id) throws IOException {
        Path dir = root.resolve("m-" + id);
        // its event sockets' names run ~86 bytes and a UNIX socket path may not exceed 107: a short folder of their own
        Path sockDir = Path.of("/tmp", "jss" + retPort, Integer.toString(minions.size()));
        Files.createDirectories(sockDir);
        socketDirs.add(sockDir);
        write(dir.resolve("conf/minion"), List.of("root_dir: " + dir, "id: " + id, "sock_dir: " + sockDir, "master: 127.0.0.1",
                "master_port: " + retPort,
                "publish_port: " + publishPort, "enable_fqdns_grains: False", "acceptance_wait_time: 1", "log_level_logfile: warning"));
        minions.add(spawn(List.of("salt-minion", "-c", dir.resolve("conf").toString(), "--disable-keepalive"),
                root.resolve("console/" + id + ".out")));
    }

    /** {@code salt -c <master conf> args...}: the command line, for timing and for the docs. */
    public List<String> saltCommand(String... args) {
        List<String> cmd = new ArrayList<>(List.of(salt.toString(), "salt", "-c", masterConfigDir().toString()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private Process spawn(List<String> args, Path console) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(salt.toString());
        cmd.addAll(args);
        Files.createDirectories(console.getParent());
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(console.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    }

    private static void write(Path file, List<String> lines) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, String.join("\n", lines) + "\n");
    }

    private static boolean listening(int port) {
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        minions.parallelStream().forEach(p -> JavaProcess.stop(p, 10));
        JavaProcess.stop(master, 15);
        for (Path dir : socketDirs) {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
                Files.deleteIfExists(dir);
            } catch (IOException e) {
                // a leftover socket file in /tmp: harmless
            }
        }
        try {
            Files.deleteIfExists(Path.of("/tmp", "jss" + retPort));
        } catch (IOException e) {
            // not empty: harmless
        }
    }
}
