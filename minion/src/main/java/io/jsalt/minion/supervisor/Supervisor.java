package io.jsalt.minion.supervisor;

import io.jsalt.config.ConfigException;
import io.jsalt.config.MinionConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A minion's process supervisor: the programs from its definitions, each a {@link SupervisedProcess}, all
 * driven from one thread of their own ({@code jsalt-supervisor-<id>}), so a state machine never races with
 * itself; callers (the execution module's jobs) hand work to that thread and wait for the answer, bounded.
 * Every state change goes to the listener, on that thread: the listener must not block.
 */
public final class Supervisor implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Supervisor.class);
    /** How long a call waits for the supervisor's thread to take it. */
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private final ProgramDefinitions definitions;
    private final Consumer<ProcessSnapshot> listener;
    private final ScheduledThreadPoolExecutor thread;
    /** Process name to process, in definition order. Touched only on the supervisor's thread. */
    private final Map<String, SupervisedProcess> processes = new LinkedHashMap<>();
    private volatile boolean closed;
    /** The bound on waiting for a start or stop to settle: the longest stopwaitsecs/startsecs plus a margin. */
    private volatile long maxWaitMillis = 10_000;
    private volatile boolean supervising;
    /** The state file for the next minion's adoption; null: nothing is written down (tests, benchmarks). */
    private final ProcessRecords records;
    /** supervisor_on_stop: leave (true) keeps the processes running at close, for the next minion to adopt. */
    private final boolean leaveOnStop;
    /** A write of the state file is queued on the thread: changes in one burst are written once. */
    private boolean recordsQueued;
    /** The programs supervisor.add defined; null: add and remove are refused. */
    private final PushedPrograms pushed;

    /** A supervisor that stops its processes when closed and writes no state file. */
    Supervisor(ProgramDefinitions definitions, Consumer<ProcessSnapshot> listener, String threadName) {
        this(definitions, listener, threadName, null, false, null);
    }

    /**
     * @param records     where the running processes are written down, and adopted from at start; null: nowhere
     * @param leaveOnStop whether {@link #close} leaves the processes running (for a next minion) instead of stopping them
     */
    Supervisor(ProgramDefinitions definitions, Consumer<ProcessSnapshot> listener, String threadName,
            ProcessRecords records, boolean leaveOnStop, PushedPrograms pushed) {
        if (leaveOnStop && records == null) {
            throw new IllegalArgumentException("processes left running need a state file to be adopted from");
        }
        this.definitions = definitions;
        this.listener = listener;
        this.records = records;
        this.leaveOnStop = leaveOnStop;
        this.pushed = pushed;
        this.thread = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        this.thread.setRemoveOnCancelPolicy(true);
        this.thread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    /**
     * The supervisor of a minion: programs from its config's {@code supervisor:} and {@code supervisor_dir},
     * AUTO log files in {@code <cachedir>/supervisor/log}.
     */
    public static Supervisor forMinion(MinionConfig config, Consumer<ProcessSnapshot> listener) {
        Path file = config.configDir().resolve(MinionConfig.FILE_NAME);
        Map<String, Object> atStart = config.supervision().programs();
        // update applies an edited supervisor: section too; a minion built in code (no file) keeps its own
        Supplier<Map<String, Object>> section = () -> Files.isRegularFile(file)
                ? MinionConfig.load(config.configDir()).supervision().programs() : atStart;
        Path state = config.cachedir().resolve("supervisor");
        PushedPrograms pushed = new PushedPrograms(state.resolve("programs"));
        ProgramDefinitions definitions = new ProgramDefinitions(firstThenLive(atStart, section), file,
                config.supervision().dir(), ProgramParser.forThisHost(state.resolve("log")), pushed.dir());
        return new Supervisor(definitions, listener, "jsalt-supervisor-" + config.id(),
                new ProcessRecords(state.resolve("processes")), config.supervision().leaveOnStop(), pushed);
    }

    /** The section as loaded at start for the first read, the file as it is now for every later one. */
    private static Supplier<Map<String, Object>> firstThenLive(Map<String, Object> atStart,
            Supplier<Map<String, Object>> now) {
        AtomicBoolean first = new AtomicBoolean(true);
        return () -> first.getAndSet(false) ? atStart : now.get();
    }

    /**
     * Reads the definitions, adopts the processes an earlier minion left running for them (their pid and start
     * time as the state file has them) and starts the other programs with {@code autostart}.
     *
     * @throws ConfigException when a definition cannot be used: nothing is started (nor stopped)
     */
    public void start() {
        Map<String, ProgramConfig> read = definitions.read();
        Map<String, ProcessRecords.Entry> found = records == null ? Map.of() : records.read();
        stopLeftovers(found, read);
        if (read.isEmpty()) {
            if (!found.isEmpty()) {
                records.write(List.of());
            }
            return; // no thread for a minion that supervises nothing (a benchmark runs thousands in one JVM)
        }
        int adopted = call(() -> {
            read.values().forEach(this::add);
            int taken = 0;
            for (SupervisedProcess p : processes.values()) {
                if (adopt(p, found.get(p.config().name()))) {
                    taken++;
                } else if (p.config().autostart()) {
                    p.start();
                }
            }
            return taken;
        });
        log.info("supervising {} processes ({} adopted from the previous minion)", read.size(), adopted);
    }

    /**
     * Takes over the process an earlier minion started for {@code p}, if it still runs: the same pid with the
     * same start time (a pid alone may have been reused). Started with another definition, it is restarted.
     */
    private boolean adopt(SupervisedProcess p, ProcessRecords.Entry entry) {
        if (entry == null || !ProcStart.isSame(entry.pid(), entry.startTicks())) {
            return adoptFromPidfile(p);
        }
        Optional<ProcessHandle> handle = ProcessHandle.of(entry.pid());
        if (handle.isEmpty()) {
            return false;
        }
        p.adopt(handle.get(), entry.startTicks(), java.time.Instant.ofEpochMilli(entry.startedMillis()), entry.restarts());
        if (!entry.launch().equals(ProcessRecords.launch(p.config()))) {
            log.info("{} (pid {}) was started with another definition: restarting it", p.config().name(), entry.pid());
            if (p.stop()) {
                // started from the thread's queue, not inside the transition that completes the wait
                p.when(ProcessState::isStopped).thenRun(() -> thread.execute(p::start));
            }
        }
        return true;
    }

    /**
     * A daemon jsalt did not start (or whose record was lost): the pid in the program's pidfile, if it runs, is
     * taken as the program's process; its exit then restarts the program with its command, as autorestart says.
     */
    private static boolean adoptFromPidfile(SupervisedProcess p) {
        Path pidfile = p.config().pidfile();
        if (pidfile == null) {
            return false;
        }
        OptionalLong pid = PidFile.read(pidfile);
        OptionalLong ticks = pid.isPresent() ? ProcStart.of(pid.getAsLong()) : OptionalLong.empty();
        Optional<ProcessHandle> handle = pid.isPresent() ? ProcessHandle.of(pid.getAsLong()) : Optional.empty();
        if (ticks.isEmpty() || handle.isEmpty()) {
            return false;
        }
        log.info("{}: adopting pid {} from its pidfile {}", p.config().name(), pid.getAsLong(), pidfile);
        java.time.Instant startedAt = handle.get().info().startInstant().orElse(java.time.Instant.now());
        p.adopt(handle.get(), ticks.getAsLong(), startedAt, 0);
        return true;
    }

    /**
     * The processes an earlier minion left running for programs no longer defined: sent their stop signal (no
     * KILL follows: their stopwaitsecs went with their definition).
     */
    private static void stopLeftovers(Map<String, ProcessRecords.Entry> found, Map<String, ProgramConfig> read) {
        found.values().stream()
                .filter(e -> !read.containsKey(e.name()) && ProcStart.isSame(e.pid(), e.startTicks()))
                .forEach(e -> ProcessHandle.of(e.pid()).ifPresent(h -> {
                    log.warn("{} (pid {}) is no longer defined: stopping it with SIG{}", e.name(), e.pid(), e.stopsignal());
                    Signals.send(h, e.stopsignal());
                }));
    }

    /** Whether any process was ever defined: false until start() or update() found one. */
    public boolean supervises() {
        return supervising;
    }

    /** Every process's state, or those {@code name} selects; by group then name, as supervisorctl lists them. */
    public List<ProcessSnapshot> status(String name) {
        return call(() -> select(name == null ? "all" : name).stream().map(SupervisedProcess::snapshot)
                .sorted(Comparator.comparing(ProcessSnapshot::group).thenComparing(ProcessSnapshot::name)).toList());
    }

    /** The log file of a process's stdout, if it has one. */
    public Optional<Path> stdoutLog(String name) {
        return call(() -> {
            SupervisedProcess p = processes.get(name);
            return Optional.ofNullable(p == null ? null : p.config().stdout().file());
        });
    }

    /**
     * Starts what {@code name} selects and waits, as supervisorctl does, until each has left STARTING.
     *
     * @return supervisorctl's lines: {@code app: started}, {@code app: ERROR (already started)}, ...
     */
    public List<String> startProcesses(String name) {
        Map<String, CompletableFuture<ProcessSnapshot>> waits = new LinkedHashMap<>();
        List<String> lines = call(() -> {
            List<String> out = new ArrayList<>();
            List<SupervisedProcess> chosen = select(name);
            if (chosen.isEmpty()) {
                out.add(name + ": ERROR (no such process)");
            }
            for (SupervisedProcess p : chosen) {
                String shown = p.config().displayName();
                if (!p.start()) {
                    out.add(shown + ": ERROR (already started)");
                } else {
                    waits.put(shown, p.when(s -> s != ProcessState.STARTING));
                }
            }
            return out;
        });
        for (Map.Entry<String, CompletableFuture<ProcessSnapshot>> wait : waits.entrySet()) {
            ProcessSnapshot settled = await(wait.getValue());
            lines.add(wait.getKey() + switch (settled == null ? ProcessState.UNKNOWN : settled.state()) {
                case RUNNING -> ": started";
                case BACKOFF, FATAL -> settled.spawnerr().isEmpty() ? ": ERROR (abnormal termination)" : ": ERROR (spawn error)";
                default -> ": ERROR (not started: " + (settled == null ? "no answer" : settled.state()) + ")";
            });
        }
        return lines;
    }

    /** Stops what {@code name} selects and waits until each is stopped (KILL after its stopwaitsecs). */
    public List<String> stopProcesses(String name) {
        Map<String, CompletableFuture<ProcessSnapshot>> waits = new LinkedHashMap<>();
        List<String> lines = call(() -> {
            List<String> out = new ArrayList<>();
            List<SupervisedProcess> chosen = select(name);
            if (chosen.isEmpty()) {
                out.add(name + ": ERROR (no such process)");
            }
            for (SupervisedProcess p : chosen) {
                if (!p.stop()) {
                    out.add(p.config().displayName() + ": ERROR (not running)");
                } else {
                    waits.put(p.config().displayName(), p.when(ProcessState::isStopped));
                }
            }
            return out;
        });
        waits.forEach((shown, wait) -> lines.add(shown + (await(wait) == null ? ": ERROR (still stopping)" : ": stopped")));
        return lines;
    }

    /**
     * Sends a signal to what {@code name} selects (supervisorctl's {@code signal}); the state machine is not
     * told: an exit it causes is handled as any other exit.
     *
     * @param signal TERM, HUP, INT, QUIT, KILL, USR1 or USR2, with or without SIG
     * @throws IllegalArgumentException for another signal
     */
    public List<String> signalProcesses(String name, String signal) {
        String sig = Signals.canonical(signal);
        return call(() -> {
            List<String> out = new ArrayList<>();
            List<SupervisedProcess> chosen = select(name);
            if (chosen.isEmpty()) {
                out.add(name + ": ERROR (no such process)");
            }
            for (SupervisedProcess p : chosen) {
                out.add(p.config().displayName() + (p.signal(sig) ? ": signalled" : ": ERROR (not running)"));
            }
            return out;
        });
    }

    /** The pid of a running process, 0 when it is not running; empty for an unknown name. */
    public OptionalLong pid(String name) {
        return call(() -> {
            List<SupervisedProcess> chosen = select(name);
            return chosen.size() == 1 ? OptionalLong.of(chosen.get(0).snapshot().pid()) : OptionalLong.empty();
        });
    }

    /**
     * Supervisor's reread: what {@link #update} would change, by program, without changing anything.
     *
     * @throws ConfigException when the definitions as they are now cannot be used
     */
    public List<String> reread() {
        Map<String, ProgramConfig> read = definitions.read();
        return call(() -> {
            ProgramChanges changes = ProgramChanges.between(configs(), read);
            List<String> lines = new ArrayList<>();
            changes.removed().forEach(g -> lines.add(g + ": disappeared"));
            changes.changed().forEach(g -> lines.add(g + ": changed"));
            changes.added().forEach(g -> lines.add(g + ": available"));
            if (lines.isEmpty()) {
                lines.add("No config updates to processes");
            }
            return lines;
        });
    }

    /**
     * Supervisor's update: reads the definitions again, stops and removes the programs gone or changed,
     * adds the new and changed ones and starts those with autostart. Programs that did not change are not touched.
     *
     * Synchronized: two updates at once (two jobs) would both add the same programs.
     *
     * @throws ConfigException when the definitions cannot be used: nothing is changed
     */
    public synchronized List<String> update() {
        return update(definitions.read(), group -> true);
    }

    /** Applies the changes of the groups {@code only} accepts, from definitions already read. */
    private List<String> update(Map<String, ProgramConfig> read, java.util.function.Predicate<String> only) {
        ProgramChanges all = call(() -> ProgramChanges.between(configs(), read));
        ProgramChanges changes = new ProgramChanges(filter(all.added(), only), filter(all.changed(), only),
                filter(all.removed(), only));
        List<String> lines = new ArrayList<>();
        for (String group : changes.removed()) {
            stopGroup(group);
            call(() -> processes.values().removeIf(p -> p.config().group().equals(group)));
            lines.add(group + ": stopped");
            lines.add(group + ": removed process group");
        }
        for (String group : changes.changed()) {
            stopGroup(group);
            call(() -> {
                processes.values().removeIf(p -> p.config().group().equals(group));
                addGroup(read, group);
                return null;
            });
            lines.add(group + ": stopped");
            lines.add(group + ": updated process group");
        }
        for (String group : changes.added()) {
            call(() -> {
                addGroup(read, group);
                return null;
            });
            lines.add(group + ": added process group");
        }
        return lines;
    }

    private static java.util.Set<String> filter(java.util.Set<String> groups, java.util.function.Predicate<String> only) {
        java.util.Set<String> kept = new java.util.LinkedHashSet<>(groups);
        kept.removeIf(only.negate());
        return kept;
    }

    /**
     * Salt's {@code supervisord.add}: with keys, defines program {@code name} (Supervisor's program keys, e.g.
     * {@code command}), writes it to the minion's own folder of added programs, where every start reads it
     * again, and applies it (started with {@code autostart}; an added program given again with other keys is
     * restarted, with the same keys it is not touched). Without keys, Supervisor's {@code add}: applies a program
     * already defined (in the config or {@code supervisor_dir}) but not yet active. Nothing else is touched.
     *
     * @throws IllegalArgumentException for a bad name or key, or a program defined elsewhere: nothing changes
     * @throws ConfigException          for a value the program cannot have: nothing changes
     */
    public synchronized List<String> add(String name, Map<String, ?> keys) {
        PushedPrograms.requireName(name);
        if (keys.isEmpty()) {
            Map<String, ProgramConfig> read = definitions.read();
            if (read.values().stream().noneMatch(c -> c.group().equals(name))) {
                return List.of(name + ": ERROR (no such process)");
            }
            List<String> lines = update(read, name::equals);
            return lines.isEmpty() ? List.of(name + ": ERROR (already active)") : lines;
        }
        if (pushed == null) {
            throw new IllegalArgumentException("this supervisor keeps no added programs");
        }
        Map<String, String> checked = PushedPrograms.checked(keys);
        if (!checked.containsKey("command")) {
            throw new IllegalArgumentException("command: required");
        }
        definitions.check(name, checked, pushed.file(name)); // refused here: no file is written
        String before = pushed.read(name);
        if (before == null && definitions.read().values().stream().anyMatch(c -> c.group().equals(name))) {
            throw new IllegalArgumentException(name + ": already defined in the minion config or supervisor_dir: change it there");
        }
        pushed.write(name, checked);
        Map<String, ProgramConfig> read;
        try {
            read = definitions.read();
        } catch (RuntimeException e) {
            pushed.restore(name, before); // another definition is broken: change nothing
            throw e;
        }
        log.info("program {} added by supervisor.add ({})", name, pushed.file(name));
        List<String> lines = update(read, name::equals);
        return lines.isEmpty() ? List.of(name + ": unchanged") : lines;
    }

    /**
     * Salt's {@code supervisord.remove}, for a program {@code supervisor.add} defined: stops it, deletes its file
     * and removes it. A program defined in the config or {@code supervisor_dir} is refused (it would come back at
     * the next update): remove it there and run update.
     */
    public synchronized List<String> remove(String name) {
        PushedPrograms.requireName(name);
        if (pushed == null || !pushed.has(name)) {
            boolean active = call(() -> processes.values().stream().anyMatch(p -> p.config().group().equals(name)));
            return List.of(name + (active ? ": ERROR (not added by supervisor.add: remove it from the minion config or "
                    + "supervisor_dir, then run supervisor.update)" : ": ERROR (no such process)"));
        }
        String before = pushed.read(name);
        pushed.delete(name);
        Map<String, ProgramConfig> read;
        try {
            read = definitions.read();
        } catch (RuntimeException e) {
            pushed.restore(name, before);
            throw e;
        }
        log.info("program {} removed by supervisor.remove", name);
        return update(read, name::equals);
    }

    private void stopGroup(String group) {
        stopProcesses(group + ":*").forEach(line -> log.debug("update: {}", line));
    }

    private void addGroup(Map<String, ProgramConfig> read, String group) {
        read.values().stream().filter(c -> c.group().equals(group)).forEach(c -> {
            SupervisedProcess p = add(c);
            if (c.autostart()) {
                p.start();
            }
        });
    }

    private Map<String, ProgramConfig> configs() {
        Map<String, ProgramConfig> out = new LinkedHashMap<>();
        processes.forEach((n, p) -> out.put(n, p.config()));
        return out;
    }

    private SupervisedProcess add(ProgramConfig config) {
        SupervisedProcess p = new SupervisedProcess(config, new Host());
        processes.put(config.name(), p);
        if (!supervising) {
            supervising = true;
            // adopted processes are not this JVM's children (no exit notification), and logs rotate from outside
            thread.scheduleWithFixedDelay(this::everySecond, 1, 1, TimeUnit.SECONDS);
        }
        maxWaitMillis = Math.max(maxWaitMillis, 10_000L + 1000L * Math.max(config.stopwaitsecs(), config.startsecs()));
        return p;
    }

    /**
     * supervisorctl's names: {@code all}, a process name, a group name ({@code web}, {@code web:}, {@code web:*})
     * for all its processes, {@code group:process}.
     */
    private List<SupervisedProcess> select(String name) {
        if (name == null || name.equals("all")) {
            return List.copyOf(processes.values());
        }
        String group = name.endsWith(":*") ? name.substring(0, name.length() - 2)
                : name.endsWith(":") ? name.substring(0, name.length() - 1) : null;
        if (group == null && name.contains(":")) {
            int colon = name.indexOf(':');
            SupervisedProcess p = processes.get(name.substring(colon + 1));
            return p != null && p.config().group().equals(name.substring(0, colon)) ? List.of(p) : List.of();
        }
        SupervisedProcess exact = group == null ? processes.get(name) : null;
        if (exact != null) {
            return List.of(exact);
        }
        String g = group == null ? name : group;
        return processes.values().stream().filter(p -> p.config().group().equals(g)).toList();
    }

    private <T> T call(Callable<T> task) {
        if (closed) {
            throw new SupervisorException("the supervisor is stopped");
        }
        Future<T> future = thread.submit(task);
        try {
            return future.get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new SupervisorException("supervisor call failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            future.cancel(false);
            throw new SupervisorException("the supervisor did not answer within " + CALL_TIMEOUT.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SupervisorException("interrupted", e);
        }
    }

    /** Waits for a state the supervisor will reach by itself: bounded by the longest stop plus a margin. */
    private ProcessSnapshot await(CompletableFuture<ProcessSnapshot> future) {
        try {
            return future.get(maxWaitMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private void everySecond() {
        for (SupervisedProcess p : List.copyOf(processes.values())) {
            p.checkAdopted();
            p.rotateLogs();
        }
    }

    /** Queues one write of the state file for the changes made by the task running now. */
    private void recordsChanged() {
        if (records != null && !recordsQueued && !thread.isShutdown()) {
            recordsQueued = true;
            thread.execute(this::writeRecords);
        }
    }

    private Void writeRecords() {
        recordsQueued = false;
        List<ProcessRecords.Entry> running = new ArrayList<>();
        for (SupervisedProcess p : processes.values()) {
            ProcessRecords.Entry entry = p.record(ProcessRecords.launch(p.config()));
            if (entry != null) {
                running.add(entry);
            }
        }
        records.write(running);
        return null;
    }

    /**
     * With {@code supervisor_on_stop: leave}, leaves every process running, written down for the next minion;
     * with {@code stop}, stops every process (each with its stop signal, then KILL after its stopwaitsecs).
     * Then the thread.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (!supervising) {
            closed = true;
            thread.shutdownNow(); // never started a thread: nothing to stop
            return;
        }
        try {
            if (leaveOnStop) {
                call(this::writeRecords);
                log.info("leaving the supervised processes running for the next minion (supervisor_on_stop: leave)");
            } else {
                stopProcesses("all").forEach(line -> log.debug("close: {}", line));
                if (records != null) {
                    call(this::writeRecords);
                }
            }
        } catch (SupervisorException e) {
            log.warn("closing the supervisor: {}", e.getMessage());
        }
        closed = true;
        thread.shutdownNow();
    }

    /** The bridge a process uses to reach this supervisor's thread and listener. */
    private final class Host implements SupervisedProcess.Host {
        @Override
        public void execute(Runnable task) {
            if (!thread.isShutdown()) {
                thread.execute(task);
            }
        }

        @Override
        public Future<?> schedule(Runnable task, Duration delay) {
            return thread.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
        }

        @Override
        public void launched() {
            recordsChanged();
        }

        @Override
        public void changed(ProcessSnapshot snapshot) {
            log.debug("{} is {}", snapshot.displayName(), snapshot.state());
            recordsChanged();
            try {
                listener.accept(snapshot);
            } catch (RuntimeException e) {
                log.warn("state change listener failed for {}: {}", snapshot.displayName(), e.toString());
            }
        }

        @Override
        public double jitter() {
            return ThreadLocalRandom.current().nextDouble();
        }
    }
}
