package io.jsalt.bench.scenario;

import io.jsalt.bench.harness.MasterProcess;
import io.jsalt.bench.harness.ProcChildren;
import io.jsalt.bench.harness.ProcSample;
import io.jsalt.bench.report.Latencies;
import io.jsalt.bench.report.TextTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code jsalt-bench supervise [--n 200] [--seconds 60]}: the same N programs (one Supervisor ini file each, in
 * one conf.d folder read by both) under Debian's real supervisord ({@code /usr/bin/supervisord}) and under one
 * jsalt minion (connected to a jsalt master, as in production), one after the other on the same machine:
 * <ul>
 * <li>time to start all: from launching the supervisor until every program's process runs its command;</li>
 * <li>idle CPU of the supervisor's process over {@code --seconds}, from /proc (user + system time), after 5 s of
 * settling;</li>
 * <li>its RSS, threads and descriptors, after the idle minute;</li>
 * <li>kill to running again: each program's process is killed with SIGKILL, one at a time, and the time until a
 * new process of that program runs its command is taken (p50/p99 over the N kills).</li>
 * </ul>
 * Both sides are observed the same way, from outside: a program's process is a child of the supervisor's process
 * whose command line is the program's ({@code /proc/<pid>/task/<tid>/children}, polled every 0.2 ms while a kill
 * is timed). Programs are {@code /bin/sleep <unique number>} with {@code startsecs=0} (RUNNING as soon as the
 * process runs: the figure is each supervisor's own reaction, not a startsecs wait) and {@code autorestart=true}.
 */
public final class Supervise {
    static final Path SUPERVISORD = Path.of("/usr/bin/supervisord");
    private static final long FIRST_ARG = 7_000_000;

    /** A supervisor being measured: launched once, closed with everything it started. */
    interface Host extends AutoCloseable {
        String name();

        /** Starts it; returns the pid of the process that supervises (its programs are that process's children). */
        long launch() throws IOException;

        /** Called before the first kill: starts listening for the state changes it reports. */
        void beforeKills() throws IOException;

        /**
         * When each program entered RUNNING again after its kill, as the supervisor itself records it (epoch ms);
         * a program missing from the answer was not seen RUNNING.
         */
        Map<String, Long> runningAfter(Map<String, Long> killedAt) throws IOException;

        @Override
        void close();
    }

    private Supervise() {
    }

    public static ScenarioResult run(BenchOptions o) throws Exception {
        if (!Files.isExecutable(SUPERVISORD)) {
            throw new IOException(SUPERVISORD + " is not installed: apt-get install supervisor (Debian's package)");
        }
        int n = o.sizes().get(0);
        int idleSeconds = o.seconds();
        Path root = o.runDir("supervise-" + n);
        // inside the jsalt minion's root_dir, where its supervisor_dir: /conf.d is (root_dir moves absolute paths)
        Path confd = programs(root.resolve("jsalt/conf.d"), n);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("scenario", "supervise");
        json.put("programs", n);
        json.put("program", "/bin/sleep <unique>, startsecs=0, autorestart=true, stdout/stderr AUTO");
        json.put("idle_seconds", idleSeconds);
        json.put("loadavg_before", loadavg());
        Map<String, Object> supervisord;
        try (Host h = new SupervisordHost(root.resolve("supervisord"), confd)) {
            supervisord = measure(h, n, idleSeconds);
        }
        Map<String, Object> jsalt;
        try (Host h = new JsaltMinionHost(o, root.resolve("jsalt"), confd)) {
            jsalt = measure(h, n, idleSeconds);
        }
        // what the minion costs with nothing to supervise: the part of jsalt's figures that is not supervision
        Map<String, Object> bare;
        try (Host h = new JsaltMinionHost(o, root.resolve("bare"), Files.createDirectories(root.resolve("bare/conf.d")))) {
            bare = idleOnly(h, idleSeconds);
        }
        json.put("jsalt_minion_without_programs", bare);
        // a minion restart that leaves the programs running: the next minion adopts them, and tells their exits
        // with its pidfd helper, not by looking every second (supervisord has no such thing: its restart restarts them)
        Map<String, Object> adopted;
        try (JsaltMinionHost h = new JsaltMinionHost(o, root.resolve("adopt"), programs(root.resolve("adopt/conf.d"), n), true)) {
            adopted = measureAdoption(h, n, idleSeconds);
        }
        json.put("jsalt_after_a_minion_restart", adopted);
        json.put("supervisord", supervisord);
        json.put("jsalt", jsalt);
        json.put("loadavg_after", loadavg());
        Map<String, Object> ratios = new LinkedHashMap<>();
        for (String key : List.of("start_all_ms", "kill_to_running_p50_ms", "kill_to_running_p99_ms", "kill_to_process_p50_ms",
                "kill_to_process_p99_ms", "idle_cpu_ms_per_minute", "rss_mib")) {
            double s = ((Number) supervisord.get(key)).doubleValue();
            double j = ((Number) jsalt.get(key)).doubleValue();
            ratios.put(key, s == 0 ? null : Latencies.round(j / s * 10) / 10.0);
        }
        json.put("ratio_jsalt_to_supervisord", ratios);
        return new ScenarioResult("supervise", json, table(json, supervisord, jsalt, ratios) + "\njsalt minion with no "
                + "programs (its own cost, not supervision's): idle CPU " + bare.get("idle_cpu_ms_per_minute")
                + " ms per minute, RSS " + bare.get("rss_mib") + " MiB, " + bare.get("threads") + " threads\n"
                + "jsalt minion restarted with supervisor_on_stop: leave (the next one adopts the " + n + " programs; "
                + "supervisord has no such thing): " + adopted.get("adopted") + " adopted, " + adopted.get("same_pid")
                + " with the same pid, all RUNNING again " + adopted.get("restart_to_all_adopted_ms")
                + " ms after the restart began; exit watch helper running: " + adopted.get("exit_watch_helper")
                + "; idle CPU " + adopted.get("idle_cpu_ms_per_minute") + " ms per minute, RSS " + adopted.get("rss_mib")
                + " MiB; kill of an adopted process -> RUNNING p50 " + adopted.get("kill_to_running_p50_ms") + " ms, p99 "
                + adopted.get("kill_to_running_p99_ms") + " ms (new process p50 " + adopted.get("kill_to_process_p50_ms")
                + " ms), not restarted within 30 s: " + adopted.get("not_restarted_within_30s") + "\n");
    }

    /** One ini file per program, as a supervisord host's conf.d: read as they are by both supervisors. */
    static Path programs(Path confd, int n) throws IOException {
        Files.createDirectories(confd);
        Files.setPosixFilePermissions(confd, PosixFilePermissions.fromString("rwx------"));
        for (int i = 0; i < n; i++) {
            Path file = confd.resolve(name(FIRST_ARG + i) + ".conf");
            Files.writeString(file, "[program:" + name(FIRST_ARG + i) + "]\ncommand=/bin/sleep " + (FIRST_ARG + i)
                    + "\nstartsecs=0\nautorestart=true\n");
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        }
        return confd;
    }

    /** The program whose command is {@code /bin/sleep <number>}. */
    private static String name(long number) {
        return String.format(Locale.ROOT, "p%04d", number - FIRST_ARG);
    }

    static Map<String, Object> measure(Host host, int n, int idleSeconds) throws IOException {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", host.name());
        long t0 = System.nanoTime();
        long pid = host.launch();
        Map<Long, Long> running = awaitAll(pid, n, Duration.ofSeconds(120)); // program number -> pid
        m.put("start_all_ms", Latencies.round((System.nanoTime() - t0) / 1e6));

        MasterProcess.pause(5000); // the start's own work (a JVM's compilation, a first sign-in) settles
        ProcSample before = ProcSample.of(pid);
        long w0 = System.nanoTime();
        MasterProcess.pause(idleSeconds * 1000L);
        ProcSample after = ProcSample.of(pid);
        double wallMs = (System.nanoTime() - w0) / 1e6;
        double cpuMs = after.cpuMillis() - before.cpuMillis();
        m.put("idle_cpu_ms", cpuMs);
        m.put("idle_cpu_ms_per_minute", Latencies.round(cpuMs * 60_000 / wallMs));
        m.put("idle_cpu_percent_of_a_core", Latencies.round(cpuMs / wallMs * 1000) / 10.0);
        m.put("rss_mib", Latencies.round(after.rssMiB()));
        m.put("threads", after.threads());
        m.put("fds", after.fds());

        host.beforeKills();
        ProcSample beforeKills = ProcSample.of(pid);
        List<Double> toProcess = new ArrayList<>();
        Map<String, Long> killedAt = new LinkedHashMap<>();
        int missed = 0;
        for (long number = FIRST_ARG; number < FIRST_ARG + n; number++) {
            killedAt.put(name(number), System.currentTimeMillis());
            double ms = killAndTime(pid, running.get(number), number);
            if (ms < 0) {
                missed++;
            } else {
                toProcess.add(ms);
            }
            MasterProcess.pause(20); // the supervisor's bookkeeping after the restart, before the next kill
        }
        ProcSample afterKills = ProcSample.of(pid);
        MasterProcess.pause(3000); // the last RUNNING is recorded (supervisord: within its 1 s loop)
        Map<String, Long> runningAt = host.runningAfter(killedAt);
        List<Double> toRunning = new ArrayList<>();
        killedAt.forEach((program, at) -> {
            Long entered = runningAt.get(program);
            if (entered != null) {
                toRunning.add((double) (entered - at));
            }
        });
        Latencies process = Latencies.ofMillis(toProcess);
        Latencies state = Latencies.ofMillis(toRunning);
        m.put("kills", n);
        m.put("not_restarted_within_30s", missed);
        m.put("kill_to_process", process.toMap());
        m.put("kill_to_process_p50_ms", process.p50());
        m.put("kill_to_process_p99_ms", process.p99());
        m.put("kill_to_running", state.toMap());
        m.put("kill_to_running_p50_ms", state.p50());
        m.put("kill_to_running_p99_ms", state.p99());
        m.put("running_not_seen", n - toRunning.size());
        m.put("cpu_ms_per_restart", Latencies.round((afterKills.cpuMillis() - beforeKills.cpuMillis()) / (double) n));
        return m;
    }

    /** Idle CPU and memory of a host with no programs, after the same settling as {@link #measure}. */
    static Map<String, Object> idleOnly(Host host, int idleSeconds) throws IOException {
        Map<String, Object> m = new LinkedHashMap<>();
        long pid = host.launch();
        MasterProcess.pause(10_000); // started and signed in, as the measured one was by then
        ProcSample before = ProcSample.of(pid);
        long w0 = System.nanoTime();
        MasterProcess.pause(idleSeconds * 1000L);
        ProcSample after = ProcSample.of(pid);
        double wallMs = (System.nanoTime() - w0) / 1e6;
        double cpuMs = after.cpuMillis() - before.cpuMillis();
        m.put("idle_cpu_ms_per_minute", Latencies.round(cpuMs * 60_000 / wallMs));
        m.put("rss_mib", Latencies.round(after.rssMiB()));
        m.put("threads", after.threads());
        return m;
    }

    /**
     * The programs started by one minion, that minion stopped with {@code supervisor_on_stop: leave}, and the next
     * one adopting them: how long until every program is RUNNING again (the adoption's own record), whether each
     * kept its pid, the adopting minion's idle CPU, and kill -> RUNNING for adopted processes (their exits told by
     * the exit watch).
     */
    static Map<String, Object> measureAdoption(JsaltMinionHost host, int n, int idleSeconds) throws IOException {
        Map<String, Object> m = new LinkedHashMap<>();
        Map<Long, Long> before = awaitAll(host.launch(), n, Duration.ofSeconds(120));
        MasterProcess.pause(5000);
        host.beforeKills();
        long restartedAt = System.currentTimeMillis();
        long pid = host.restartMinion();
        Map<String, Long> all = new LinkedHashMap<>();
        before.keySet().forEach(number -> all.put(name(number), restartedAt));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        Map<String, Long> adoptedAt = host.runningAfter(all);
        while (adoptedAt.size() < n && System.nanoTime() < deadline) {
            MasterProcess.pause(100);
            adoptedAt = host.runningAfter(all);
        }
        Map<String, Long> pids = host.runningPids(restartedAt);
        long samePid = before.entrySet().stream().filter(e -> e.getValue().equals(pids.get(name(e.getKey())))).count();
        m.put("adopted", adoptedAt.size());
        m.put("same_pid", samePid);
        m.put("restart_to_all_adopted_ms", adoptedAt.values().stream().mapToLong(at -> at - restartedAt).max().orElse(-1));
        m.put("exit_watch_helper", ProcChildren.of(pid).stream().map(ProcChildren::commandLine)
                .anyMatch(line -> line.startsWith("jsalt-exitwatch")));

        MasterProcess.pause(5000);
        ProcSample idleFrom = ProcSample.of(pid);
        long w0 = System.nanoTime();
        MasterProcess.pause(idleSeconds * 1000L);
        ProcSample idleTo = ProcSample.of(pid);
        m.put("idle_cpu_ms_per_minute", Latencies.round((idleTo.cpuMillis() - idleFrom.cpuMillis()) * 60_000
                / ((System.nanoTime() - w0) / 1e6)));
        m.put("rss_mib", Latencies.round(idleTo.rssMiB()));

        Map<String, Long> killedAt = new LinkedHashMap<>();
        List<Double> toProcess = new ArrayList<>();
        for (Map.Entry<Long, Long> e : before.entrySet()) {
            killedAt.put(name(e.getKey()), System.currentTimeMillis());
            double ms = killAndTime(pid, e.getValue(), e.getKey());
            if (ms >= 0) {
                toProcess.add(ms);
            }
            MasterProcess.pause(20);
        }
        MasterProcess.pause(3000);
        List<Double> toRunning = new ArrayList<>();
        host.runningAfter(killedAt).forEach((program, at) -> toRunning.add((double) (at - killedAt.get(program))));
        Latencies running = Latencies.ofMillis(toRunning);
        m.put("kill_to_running", running.toMap());
        m.put("kill_to_running_p50_ms", running.p50());
        m.put("kill_to_running_p99_ms", running.p99());
        m.put("kill_to_process_p50_ms", Latencies.round(Latencies.ofMillis(toProcess).p50()));
        m.put("not_restarted_within_30s", n - toProcess.size());
        return m;
    }

    /** Waits until each of the n programs has a child of {@code pid} running its command line. */
    private static Map<Long, Long> awaitAll(long pid, int n, Duration within) throws IOException {
        long deadline = System.nanoTime() + within.toNanos();
        Map<Long, Long> found = new LinkedHashMap<>();
        while (found.size() < n) {
            for (long child : ProcChildren.of(pid)) {
                long number = programNumber(ProcChildren.commandLine(child));
                if (number >= 0) {
                    found.put(number, child);
                }
            }
            if (found.size() < n) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("only " + found.size() + " of " + n + " programs started within " + within.toSeconds() + " s");
                }
                MasterProcess.pause(10);
            }
        }
        return found;
    }

    /** Kills the program's process with SIGKILL; the ms until a new process runs its command, -1 after 30 s. */
    private static double killAndTime(long supervisor, long victim, long number) {
        Set<Long> known = new HashSet<>(ProcChildren.of(supervisor));
        ProcessHandle handle = ProcessHandle.of(victim).orElse(null);
        long t0 = System.nanoTime();
        if (handle == null || !handle.destroyForcibly()) {
            return -1;
        }
        long deadline = t0 + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (long child : ProcChildren.of(supervisor)) {
                // a new child is read again at each look until it runs the command: before its exec it shows its
                // parent's command line, or a spawn helper's (the JVM's jspawnhelper)
                if (!known.contains(child) && programNumber(ProcChildren.commandLine(child)) == number) {
                    return (System.nanoTime() - t0) / 1e6;
                }
            }
            LockSupport.parkNanos(200_000);
        }
        return -1;
    }

    /** The program's number from {@code /bin/sleep <number>}, -1 for any other command line. */
    private static long programNumber(String commandLine) {
        int space = commandLine.lastIndexOf(' ');
        if (space < 0 || !commandLine.contains("sleep ")) {
            return -1;
        }
        try {
            return Long.parseLong(commandLine.substring(space + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String table(Map<String, Object> json, Map<String, Object> s, Map<String, Object> j, Map<String, Object> ratios) {
        TextTable t = new TextTable("", String.valueOf(s.get("name")), String.valueOf(j.get("name")), "jsalt / supervisord");
        t.row("start all (ms)", s.get("start_all_ms"), j.get("start_all_ms"), ratios.get("start_all_ms"));
        t.row("kill -> RUNNING p50 (ms)", s.get("kill_to_running_p50_ms"), j.get("kill_to_running_p50_ms"), ratios.get("kill_to_running_p50_ms"));
        t.row("kill -> RUNNING p99 (ms)", s.get("kill_to_running_p99_ms"), j.get("kill_to_running_p99_ms"), ratios.get("kill_to_running_p99_ms"));
        t.row("kill -> new process p50 (ms)", s.get("kill_to_process_p50_ms"), j.get("kill_to_process_p50_ms"), ratios.get("kill_to_process_p50_ms"));
        t.row("kill -> new process p99 (ms)", s.get("kill_to_process_p99_ms"), j.get("kill_to_process_p99_ms"), ratios.get("kill_to_process_p99_ms"));
        t.row("not restarted within 30 s", s.get("not_restarted_within_30s"), j.get("not_restarted_within_30s"), "");
        t.row("RUNNING not seen", s.get("running_not_seen"), j.get("running_not_seen"), "");
        t.row("idle CPU (ms per minute)", s.get("idle_cpu_ms_per_minute"), j.get("idle_cpu_ms_per_minute"), ratios.get("idle_cpu_ms_per_minute"));
        t.row("idle CPU (% of a core)", s.get("idle_cpu_percent_of_a_core"), j.get("idle_cpu_percent_of_a_core"), "");
        t.row("CPU per restart (ms)", s.get("cpu_ms_per_restart"), j.get("cpu_ms_per_restart"), "");
        t.row("RSS (MiB)", s.get("rss_mib"), j.get("rss_mib"), ratios.get("rss_mib"));
        t.row("threads", s.get("threads"), j.get("threads"), "");
        t.row("open fds", s.get("fds"), j.get("fds"), "");
        return json.get("programs") + " programs (" + json.get("program") + "), one supervisor at a time on this machine;\n"
                + "idle CPU over " + json.get("idle_seconds") + " s after a 5 s settle; kill -> RUNNING: SIGKILL to the state "
                + "RUNNING as the supervisor records it\n(supervisord: its log line, ms; jsalt: the 'since' of its RUNNING "
                + "event on the master's bus); kill -> new process: SIGKILL to a new child running the command, seen from "
                + "/proc.\nload average before: " + json.get("loadavg_before") + ", after: "
                + json.get("loadavg_after") + " (a busy machine slows both sides)\n\n" + t.render();
    }

    private static String loadavg() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
