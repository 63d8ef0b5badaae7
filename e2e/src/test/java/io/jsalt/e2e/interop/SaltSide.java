package io.jsalt.e2e.interop;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Real Salt 3006.8 daemons in one folder: a salt-master on free loopback ports and salt-minions, each with
 * its own {@code root_dir}, and Salt's own tools ({@code salt}, {@code salt-key}, {@code salt-run}) against
 * that master. The minion settings are the ones Salt's README asks for a fast start here.
 */
final class SaltSide {
    private final Processes processes;
    private final Path root;
    private final Map<String, Process> minions = new LinkedHashMap<>();
    private Process master;
    private int publishPort;
    private int retPort;

    SaltSide(Processes processes, Path root) {
        this.processes = processes;
        this.root = root;
    }

    Path masterConfigDir() {
        return root.resolve("master/conf");
    }

    Path masterLog() {
        return root.resolve("master/var/log/salt/master");
    }

    Path masterPki() {
        return root.resolve("master/etc/salt/pki/master");
    }

    int publishPort() {
        return publishPort;
    }

    int retPort() {
        return retPort;
    }

    /** Starts a salt-master and returns once both its ports take connections. */
    void startMaster(String... extraConfigLines) throws IOException, InterruptedException {
        publishPort = Processes.freePort();
        retPort = Processes.freePort();
        List<String> lines = new ArrayList<>(List.of("root_dir: " + root.resolve("master"), "interface: 127.0.0.1",
                "publish_port: " + publishPort, "ret_port: " + retPort, "worker_threads: 2", "log_level_logfile: info",
                // a deleted key rotates the AES key at the next maintenance round: 1 s, not the default 60 s
                "loop_interval: 1"));
        lines.addAll(List.of(extraConfigLines));
        Processes.write(masterConfigDir().resolve("master"), lines);
        launchMaster();
    }

    /** Stops the salt-master and starts it again with the same config, keys and ports. */
    void restartMaster() throws IOException, InterruptedException {
        Processes.stop(master);
        launchMaster();
    }

    private void launchMaster() throws IOException, InterruptedException {
        master = processes.spawn(RealSalt.tool("salt-master", List.of("-c", masterConfigDir().toString())),
                root.resolve("console/salt-master.out"));
        await().atMost(Duration.ofSeconds(60)).until(() -> !master.isAlive()
                || (Processes.listening(publishPort) && Processes.listening(retPort)));
        if (!master.isAlive()) {
            throw new AssertionError("salt-master exited: " + Processes.read(root.resolve("console/salt-master.out")));
        }
    }

    /** Starts a salt-minion of id {@code id} against a master at these ports (jsalt's or Salt's). */
    Process startMinion(String id, int masterPublishPort, int masterRetPort, String... extraConfigLines) throws IOException, InterruptedException {
        Path dir = minionRoot(id);
        List<String> lines = new ArrayList<>(List.of("root_dir: " + dir, "id: " + id, "master: 127.0.0.1",
                "master_port: " + masterRetPort, "publish_port: " + masterPublishPort, "enable_fqdns_grains: False",
                "acceptance_wait_time: 1", "log_level_logfile: info"));
        lines.addAll(List.of(extraConfigLines));
        Processes.write(dir.resolve("conf/minion"), lines);
        Process p = processes.spawn(RealSalt.tool("salt-minion", List.of("-c", dir.resolve("conf").toString(), "--disable-keepalive")),
                root.resolve("console/" + id + ".out"));
        minions.put(id, p);
        return p;
    }

    void stopMinion(String id) throws InterruptedException {
        Processes.stop(minions.remove(id));
    }

    Path minionRoot(String id) {
        return root.resolve("m-" + id);
    }

    Path minionLog(String id) {
        return minionRoot(id).resolve("var/log/salt/minion");
    }

    /** True once the salt-minion has logged that it runs job {@code jid}. */
    boolean minionRan(String id, String jid) {
        return Processes.read(minionLog(id)).contains("with jid " + jid);
    }

    /** {@code salt -c <master conf> args...}, at most 90 s. */
    Processes.Result salt(String... args) throws IOException, InterruptedException {
        return tool("salt", args);
    }

    Processes.Result saltKey(String... args) throws IOException, InterruptedException {
        return tool("salt-key", args);
    }

    Processes.Result saltRun(String... args) throws IOException, InterruptedException {
        return tool("salt-run", args);
    }

    /** Starts {@code salt-run state.event ...} in the background, its output into {@code out}. */
    Process streamEvents(Path out, String... args) throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(List.of("-c", masterConfigDir().toString(), "state.event"));
        all.addAll(List.of(args));
        return processes.spawn(RealSalt.tool("salt-run", all), out);
    }

    private Processes.Result tool(String tool, String... args) throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(List.of("-c", masterConfigDir().toString()));
        all.addAll(List.of(args));
        return processes.run(RealSalt.tool(tool, all), 90);
    }

    boolean pending(String id) {
        return Files.isRegularFile(masterPki().resolve("minions_pre").resolve(id));
    }
}
