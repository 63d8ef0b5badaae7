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
 * jsalt daemons as separate JVMs in one folder, on free loopback ports, and jsalt's own tools run as
 * processes against that master: the other side of {@link SaltSide}. A jsalt minion may also point at a
 * salt-master's ports.
 */
final class JsaltSide {
    static final String CLASSPATH = System.getProperty("java.class.path");
    static final String JAVA = ProcessHandle.current().info().command().orElse("java");

    private final Processes processes;
    private final Path root;
    private final Map<String, Process> minions = new LinkedHashMap<>();
    private Process master;
    private int publishPort;
    private int retPort;

    JsaltSide(Processes processes, Path root) {
        this.processes = processes;
        this.root = root;
    }

    int publishPort() {
        return publishPort;
    }

    int retPort() {
        return retPort;
    }

    Path masterConfigDir() {
        return root.resolve("conf/master");
    }

    Path masterLog() {
        return root.resolve("var/log/jsalt/master");
    }

    Path masterPki() {
        return root.resolve("etc/jsalt/pki/master");
    }

    /** Starts a jsalt master and returns once its log says it is up. */
    void startMaster(String... extraConfigLines) throws IOException {
        publishPort = Processes.freePort();
        retPort = Processes.freePort();
        List<String> lines = new ArrayList<>(List.of("root_dir: " + root, "interface: 127.0.0.1",
                "publish_port: " + publishPort, "ret_port: " + retPort, "log_level: info", "timeout: 5", "gather_job_timeout: 2"));
        lines.addAll(List.of(extraConfigLines));
        Processes.write(masterConfigDir().resolve("master"), lines);
        launchMaster();
    }

    /** Stops the master (TERM) and starts it again with the same config, keys, job cache and ports. */
    void restartMaster() throws IOException, InterruptedException {
        Processes.stop(master);
        launchMaster();
    }

    private void launchMaster() throws IOException {
        int before = ups();
        master = processes.spawn(java("io.jsalt.cli.daemon.MasterDaemon", "-c", masterConfigDir().toString()),
                root.resolve("console/master.out"));
        // bounded, not a speed claim: on two cores shared with other builds a JVM master has taken over 30 s to come up
        await().atMost(Duration.ofSeconds(90)).until(() -> !master.isAlive() || ups() > before);
        if (!master.isAlive()) {
            throw new AssertionError("jsalt-master exited: " + Processes.read(root.resolve("console/master.out")));
        }
    }

    private int ups() {
        return Processes.read(masterLog()).split("master up", -1).length - 1;
    }

    /** Starts a jsalt minion against a master at these ports (jsalt's or Salt's). */
    Process startMinion(String id, int masterPublishPort, int masterRetPort, String... extraConfigLines) throws IOException {
        Path dir = root.resolve("conf/" + id);
        List<String> lines = new ArrayList<>(List.of("root_dir: " + root, "id: " + id, "master: 127.0.0.1",
                "master_port: " + masterRetPort, "publish_port: " + masterPublishPort, "pki_dir: /etc/jsalt/pki/" + id,
                "cachedir: /var/cache/jsalt/" + id, "sock_dir: /var/run/jsalt/" + id, "log_file: /var/log/jsalt/" + id,
                "log_level: info", "acceptance_wait_time: 1", "random_reauth_delay: 1"));
        for (String line : extraConfigLines) {
            // a "key: value" line replaces the default line of the same key (e.g. a list of masters)
            String key = line.substring(0, line.indexOf(':') + 1);
            lines.removeIf(l -> l.startsWith(key));
        }
        lines.addAll(List.of(extraConfigLines));
        Processes.write(dir.resolve("minion"), lines);
        Process p = processes.spawn(java("io.jsalt.cli.daemon.MinionDaemon", "-c", dir.toString()), root.resolve("console/" + id + ".out"));
        minions.put(id, p);
        return p;
    }

    Path minionLog(String id) {
        return root.resolve("var/log/jsalt/" + id);
    }

    Processes.Result jsalt(String... args) throws IOException, InterruptedException {
        return tool("io.jsalt.cli.jsalt.JsaltCommand", args);
    }

    Processes.Result key(String... args) throws IOException, InterruptedException {
        return tool("io.jsalt.cli.key.KeyCommand", args);
    }

    Processes.Result run(String... args) throws IOException, InterruptedException {
        return tool("io.jsalt.cli.run.RunCommand", args);
    }

    /** Starts {@code jsalt-event --out json args...} in the background, its output into {@code out}. */
    Process streamEvents(Path out, String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of("-c", masterConfigDir().toString(), "--out", "json"));
        all.addAll(List.of(args));
        return processes.spawn(java("io.jsalt.cli.event.EventCommand", all.toArray(String[]::new)), out);
    }

    boolean accepted(String id) {
        return Files.isRegularFile(masterPki().resolve("minions").resolve(id));
    }

    boolean pending(String id) {
        return Files.isRegularFile(masterPki().resolve("minions_pre").resolve(id));
    }

    private Processes.Result tool(String mainClass, String... args) throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(List.of("-c", masterConfigDir().toString()));
        all.addAll(List.of(args));
        return processes.run(java(mainClass, all.toArray(String[]::new)), 120);
    }

    private static ProcessBuilder java(String mainClass, String... args) {
        List<String> cmd = new ArrayList<>(List.of(JAVA, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx128m",
                "-cp", CLASSPATH, mainClass));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd);
    }
}
