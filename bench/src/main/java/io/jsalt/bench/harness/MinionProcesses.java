package io.jsalt.bench.harness;

import io.jsalt.bench.swarm.KeyCache;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Real {@code jsalt-minion} processes (the daemon's main class, one JVM each) against a {@link MasterProcess},
 * with cached, pre-accepted keys. Closing stops them all.
 */
public final class MinionProcesses implements AutoCloseable {
    private final List<Process> processes = new ArrayList<>();

    /** Starts {@code count} minion JVMs with the given JVM options; ids bench-00000 on. */
    public static MinionProcesses start(MasterProcess master, Path root, KeyCache keys, int count, List<String> jvmOptions) throws IOException {
        keys.ensure(count, 2);
        List<String> ids = KeyCache.ids(0, count);
        keys.preAccept(master.pkiDir(), ids);
        MinionProcesses all = new MinionProcesses();
        try {
            for (String id : ids) {
                all.processes.add(startOne(master, root, keys, id, jvmOptions));
            }
        } catch (IOException | RuntimeException e) {
            all.close();
            throw e;
        }
        return all;
    }

    private static Process startOne(MasterProcess master, Path root, KeyCache keys, String id, List<String> jvmOptions) throws IOException {
        Path pki = root.resolve("etc/jsalt/pki/" + id);
        Files.createDirectories(pki);
        Files.copy(keys.privateKey(id), pki.resolve("minion.pem"), StandardCopyOption.REPLACE_EXISTING);
        Files.copy(keys.publicKey(id), pki.resolve("minion.pub"), StandardCopyOption.REPLACE_EXISTING);
        Path conf = root.resolve("conf/" + id);
        Files.createDirectories(conf);
        Files.writeString(conf.resolve("minion"), String.join("\n", "root_dir: " + root, "id: " + id, "master: 127.0.0.1",
                "master_port: " + master.retPort(), "publish_port: " + master.publishPort(), "pki_dir: /etc/jsalt/pki/" + id,
                "cachedir: /var/cache/jsalt/" + id, "sock_dir: /var/run/jsalt/" + id, "log_file: /var/log/jsalt/" + id,
                "log_level: warning") + "\n");
        return JavaProcess.start(jvmOptions, "io.jsalt.cli.daemon.MinionDaemon", List.of("-c", conf.toString()),
                root.resolve("console/" + id + ".out"));
    }

    public List<Process> processes() {
        return List.copyOf(processes);
    }

    public boolean allAlive() {
        return processes.stream().allMatch(Process::isAlive);
    }

    @Override
    public void close() {
        processes.parallelStream().forEach(p -> JavaProcess.stop(p, 15));
    }
}
