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
    private final SupervisorListener listener;
    private final ScheduledThreadPoolExecutor thread;
    /** Process name to process, in definition order. Touched only on the supervisor's thread. */
    private final Map<String, SupervisedProcess> processes = new LinkedHashMap<>();
    private volatile boolean closed;
    /** The bound on waiting for a start or stop to settle: the longest stopwaitsecs/startsecs plus a margin. */
    private volatile long maxWaitMillis = 10_000;
    private volatile boolean supervising;
    /** The state file held processes at start: an earlier minion supervised something. */
    private volatile boolean leftRecords;
    /** The state file for the next minion's adoption; null: nothing is written down (tests, benchmarks). */
    private final ProcessRecords records;
    /** supervisor_on_stop: leave (true) keeps the processes running at close, for the next minion to adopt. */
    private final boolean leaveOnStop;
    /** A write of the state file is queued on the thread: changes in one burst are written once. */
    private boolean recordsQueued;
    /** Log sizes for rotation, exits of the processes this JVM cannot wait for (adopted, daemons). */
    private final SupervisorWatches watches;
    /** supervisor.add and supervisor.remove, over the programs they keep. */
    private final ProgramPushes pushes;

    /** A supervisor that stops its processes when closed and writes no state file. */
    Supervisor(ProgramDefinitions definitions, SupervisorListener listener, String threadName) {
        this(definitions, listener, threadName, null, false, null);
    }

    /**
     * @param records     where the running processes are written down, and adopted from at start; null: nowhere
     * @param leaveOnStop whether {@link #close} leaves the processes running (for a next minion) instead of stopping them
     */
    Supervisor(ProgramDefinitions definitions, SupervisorListener listener, String threadName,
            ProcessRecords records, boolean leaveOnStop, PushedPrograms pushed) {
        this(definitions, listener, threadName, records, leaveOnStop, pushed, ExitWatch.PERL);
    }

    /** @param perl the Perl of the exit watch's helper; one that cannot run: adopted processes are looked at every second */
    Supervisor(ProgramDefinitions definitions, SupervisorListener listener, String threadName,
            ProcessRecords records, boolean leaveOnStop, PushedPrograms pushed, Path perl) {
        if (leaveOnStop && records == null) {
            throw new IllegalArgumentException("processes left running need a state file to be adopted from");
        }
        this.definitions = definitions;
        this.listener = listener;
        this.records = records;
        this.leaveOnStop = leaveOnStop;
        this.pushes = new ProgramPushes(pushed, definitions, new ProgramPushes.Groups() {
            @Override
            public List<String> update(Map<String, ProgramConfig> read, java.util.function.Predicate<String> only) {
                return Supervisor.this.update(read, only);
            }

            @Override
            public boolean active(String group) {
                return call(() -> processes.values().stream().anyMatch(p -> p.config().group().equals(group)));
            }
        });
        this.thread = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        this.watches = new SupervisorWatches(pid -> {
            if (!thread.isShutdown()) {
                thread.execute(() -> SupervisorWatches.exitOf(pid, processes.values()));
            }
        }, threadName, perl);
        this.thread.setRemoveOnCancelPolicy(true);
        this.thread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    /**
     * The supervisor of a minion: programs from its config's {@code supervisor:} and {@code supervisor_dir},
     * AUTO log files in {@code <cachedir>/supervisor/log}.
     */
    public static Supervisor forMinion(MinionConfig config, SupervisorListener listener) {
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
        Adoption.stopLeftovers(found, read);
        leftRecords = !found.isEmpty();
        if (read.isEmpty()) {
            if (!found.isEmpty()) {
                records.write(List.of());
            }
            return; // no thread for a minion that supervises nothing (a benchmark runs thousands in one JVM)
        }
        int adopted = call(() -> {
            read.values().forEach(this::add);
            int taken = 0;
            List<SupervisedProcess> notRecorded = new ArrayList<>();
            for (SupervisedProcess p : processes.values()) {
                if (Adoption.adoptRecorded(p, found.get(p.config().name()), thread)) {
                    taken++;
                } else {
                    notRecorded.add(p);
                }
            }
            // then processes jsalt did not start: never one the state file gave to another program
            for (SupervisedProcess p : ProcessNames.byPriority(notRecorded)) {
                if (Adoption.adoptOutside(p, watches.ownPids(processes.values()))) {
                    taken++;
                } else if (p.config().autostart()) {
                    p.start();
                }
            }
            return taken;
        });
        log.info("supervising {} processes ({} adopted: left running by the previous minion, or found by pidfile or pattern)",
                read.size(), adopted);
    }


    /** Whether any process was ever defined: false until start() or update() found one. */
    public boolean supervises() {
        return supervising;
    }

    /**
     * Whether the master may hold rows of this minion's processes: it supervises, or an earlier minion left
     * processes running (their programs may since have been removed from the definitions: the master is to
     * drop their rows). A minion that never supervised anything sends nothing.
     */
    public boolean mayHaveRows() {
        return supervising || leftRecords;
    }

    /** Every process's state, or those {@code name} selects; by group then name, as supervisorctl lists them. */
    public List<ProcessSnapshot> status(String name) {
        return call(() -> ProcessNames.select(processes, name == null ? "all" : name).stream().map(SupervisedProcess::snapshot)
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
            List<SupervisedProcess> chosen = ProcessNames.select(processes, name);
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
            // Supervisor stops in the reverse of its start order: highest priority first
            List<SupervisedProcess> chosen = new ArrayList<>(ProcessNames.select(processes, name));
            java.util.Collections.reverse(chosen);
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
            List<SupervisedProcess> chosen = ProcessNames.select(processes, name);
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
            List<SupervisedProcess> chosen = ProcessNames.select(processes, name);
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
        ProgramChanges changes = all.only(only);
        List<String> lines = new ArrayList<>();
        for (String group : changes.removed()) {
            stopGroup(group);
            call(() -> removeGroup(group, Map.of()));
            lines.add(group + ": stopped");
            lines.add(group + ": removed process group");
        }
        for (String group : changes.changed()) {
            stopGroup(group);
            call(() -> {
                removeGroup(group, read);
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

    /**
     * Salt's {@code supervisord.add}: see {@link ProgramPushes#add}. Synchronized with {@link #update()}.
     *
     * @throws IllegalArgumentException for a bad name or key, or a program defined elsewhere: nothing changes
     * @throws ConfigException          for a value the program cannot have: nothing changes
     */
    public synchronized List<String> add(String name, Map<String, ?> keys) {
        return pushes.add(name, keys);
    }

    /** Salt's {@code supervisord.remove}: see {@link ProgramPushes#remove}. */
    public synchronized List<String> remove(String name) {
        return pushes.remove(name);
    }

    private void stopGroup(String group) {
        stopProcesses(group + ":*").forEach(line -> log.debug("update: {}", line));
    }

    /**
     * Drops the processes of {@code group}; those {@code next} does not define again are told to the listener as
     * removed (the master drops their rows). On the supervisor's thread.
     */
    private Void removeGroup(String group, Map<String, ProgramConfig> next) {
        for (var it = processes.values().iterator(); it.hasNext(); ) {
            ProgramConfig c = it.next().config();
            if (c.group().equals(group)) {
                it.remove();
                ProgramConfig again = next.get(c.name());
                if (again == null || !again.group().equals(group)) {
                    notifyRemoved(c);
                }
            }
        }
        return null;
    }

    private void notifyRemoved(ProgramConfig c) {
        try {
            listener.removed(c.name(), c.group());
        } catch (RuntimeException e) {
            log.warn("removal listener failed for {}: {}", c.displayName(), e.toString());
        }
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
            thread.scheduleWithFixedDelay(() -> watches.tick(processes.values()), 1, 1, TimeUnit.SECONDS);
        }
        maxWaitMillis = Math.max(maxWaitMillis, 10_000L + 1000L * Math.max(config.stopwaitsecs(), config.startsecs()));
        return p;
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

    /** Queues one write of the state file for the changes made by the task running now. */
    private void recordsChanged() {
        if (records != null && !recordsQueued && !thread.isShutdown()) {
            recordsQueued = true;
            thread.execute(this::writeRecords);
        }
    }

    private Void writeRecords() {
        recordsQueued = false;
        records.write(processes.values().stream().map(SupervisedProcess::record)
                .filter(java.util.Objects::nonNull).toList());
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
        watches.close();
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
        public void adopted(long pid, long ticks) {
            watches.watch(pid, ticks);
        }

        @Override
        public Optional<Adoption.Found> findOutside(ProgramConfig config) {
            return Adoption.findOutside(config, watches.ownPids(processes.values()));
        }

        @Override
        public double jitter() {
            return ThreadLocalRandom.current().nextDouble();
        }
    }
}
