package io.jsalt.cli.demo;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The demo's folder: one installation under a single root_dir, with a config folder per daemon
 * ({@code conf/master}, {@code conf/minion-N}), their logs and pid files.
 */
final class Sandbox {
    private final Path root;

    Sandbox(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    Path root() {
        return root;
    }

    Path masterConfigDir() {
        return root.resolve("conf/master");
    }

    Path minionConfigDir(String id) {
        return root.resolve("conf/" + id);
    }

    Path runDir() {
        return root.resolve("run");
    }

    Path pidFile(String name) {
        return runDir().resolve(name + ".pid");
    }

    Path consoleLog(String name) {
        return root.resolve("var/log/jsalt/" + name + ".console");
    }

    /**
     * Starts over: removes a previous demo's files, so each run shows keys arriving and being accepted.
     * Refuses a non-empty folder that is not a demo sandbox.
     */
    void wipe() throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        boolean isSandbox = Files.isRegularFile(masterConfigDir().resolve("master"));
        try (var entries = Files.list(root)) {
            if (!isSandbox && entries.findAny().isPresent()) {
                throw new io.jsalt.cli.CliException(io.jsalt.cli.ExitCode.USAGE,
                        root + " is not empty and is not a jsalt demo sandbox: choose another --dir");
            }
        }
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                if (!p.equals(root)) {
                    Files.delete(p);
                }
            }
        }
    }

    void writeMasterConfig(int publishPort, int retPort) throws IOException {
        write(masterConfigDir().resolve("master"), String.join("\n",
                "# jsalt demo master: everything lives under root_dir",
                "root_dir: " + root,
                "interface: 127.0.0.1",
                "publish_port: " + publishPort,
                "ret_port: " + retPort,
                "worker_threads: 2",
                "log_level: info",
                "timeout: 10",
                ""));
    }

    /**
     * Copies {@code tree}/states and {@code tree}/pillar to the master's default {@code file_roots}
     * ({@code srv/jsalt}) and {@code pillar_roots} ({@code srv/pillar}) under the sandbox's root_dir.
     */
    void installExamples(Path tree) throws IOException {
        copyTree(tree.resolve("states"), root.resolve("srv/jsalt"));
        copyTree(tree.resolve("pillar"), root.resolve("srv/pillar"));
    }

    private static void copyTree(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            return;
        }
        try (var walk = Files.walk(from)) {
            for (Path p : walk.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else if (Files.isRegularFile(p)) {
                    Files.copy(p, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    void writeMinionConfig(String id, int publishPort, int retPort) throws IOException {
        write(minionConfigDir(id).resolve("minion"), String.join("\n",
                "# jsalt demo minion " + id,
                "root_dir: " + root,
                "id: " + id,
                "master: 127.0.0.1",
                "master_port: " + retPort,
                "publish_port: " + publishPort,
                "pki_dir: /etc/jsalt/pki/" + id,
                "cachedir: /var/cache/jsalt/" + id,
                "sock_dir: /var/run/jsalt/" + id,
                "log_file: /var/log/jsalt/" + id,
                "log_level: info",
                "acceptance_wait_time: 1",
                "random_reauth_delay: 2",
                ""));
    }

    private static void write(Path file, String content) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content, StandardCharsets.UTF_8);
    }

    /** A TCP port that was free a moment ago on loopback. */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }
}
