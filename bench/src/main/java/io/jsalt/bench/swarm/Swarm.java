package io.jsalt.bench.swarm;

import io.jsalt.bench.harness.MasterProcess;
import io.jsalt.bench.harness.ProcSample;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * N minions spread over one or more worker JVMs ({@link SwarmWorker}), against one master. Their keys come
 * from the {@link KeyCache} and are pre-accepted on the master before anything starts.
 */
public final class Swarm implements AutoCloseable {
    /** How a swarm is made up. */
    /**
     * @param ioThreads JeroMQ I/O threads of each worker JVM; 0 for {@link SwarmSettings#ioThreadsFor} its minions
     * @param subscriptionsPerThread subscriptions per subscription thread of each worker JVM
     */
    public record Options(int size, int jvms, String kind, int reauthDelay, boolean signReturns, List<String> jvmOptions, int ioThreads,
            int subscriptionsPerThread) {
        public Options {
            jvmOptions = List.copyOf(jvmOptions);
        }

        public Options(int size, int jvms, String kind, int reauthDelay, boolean signReturns, List<String> jvmOptions) {
            this(size, jvms, kind, reauthDelay, signReturns, jvmOptions, 0, SwarmSettings.SUBSCRIPTIONS_PER_THREAD);
        }
    }

    private final List<SwarmProcess> workers = new ArrayList<>();
    private final int size;

    private Swarm(int size) {
        this.size = size;
    }

    /** Makes keys as needed, pre-accepts them on the master and starts the worker JVMs (minions not started yet). */
    public static Swarm launch(Options options, MasterProcess master, Path root, Path cacheDir) throws IOException {
        return launch(options, master, null, root, cacheDir);
    }

    /**
     * As {@link #launch(Options, MasterProcess, Path, Path)}, with {@code failoverTo} (null: none) as the second
     * master of real minions under {@code master_type: failover}; the keys are pre-accepted on it too.
     */
    public static Swarm launch(Options options, MasterProcess master, MasterProcess failoverTo, Path root, Path cacheDir)
            throws IOException {
        KeyCache keys = new KeyCache(cacheDir);
        keys.ensure(options.size(), 2);
        keys.preAccept(master.pkiDir(), KeyCache.ids(0, options.size()));
        if (failoverTo != null) {
            keys.preAccept(failoverTo.pkiDir(), KeyCache.ids(0, options.size()));
        }
        Swarm swarm = new Swarm(options.size());
        int jvms = Math.max(1, Math.min(options.jvms(), options.size()));
        int first = 0;
        long idleCloseMs = RequestIdleBudget.forSwarmOf(options.size()).toMillis();
        try {
            for (int w = 0; w < jvms; w++) {
                int count = options.size() / jvms + (w < options.size() % jvms ? 1 : 0);
                SwarmSettings s = new SwarmSettings(root.resolve("swarm-" + w), cacheDir, master.retPort(), master.publishPort(),
                        first, count, 60, options.reauthDelay(), options.signReturns(), options.kind(),
                        failoverTo == null ? 0 : failoverTo.retPort(), idleCloseMs,
                        options.ioThreads() > 0 ? options.ioThreads() : SwarmSettings.ioThreadsFor(count), options.subscriptionsPerThread());
                swarm.workers.add(new SwarmProcess(s, options.jvmOptions(), root.resolve("console/swarm-" + w + ".out")));
                first += count;
            }
            for (SwarmProcess p : swarm.workers) {
                p.await("ready", 300_000);
            }
        } catch (IOException | RuntimeException e) {
            swarm.close();
            throw e;
        }
        return swarm;
    }

    public int size() {
        return size;
    }

    /** Starts every minion in every worker at once; returns the wall clock (epoch ms) of the command. */
    public long start() throws IOException {
        long at = System.currentTimeMillis();
        workers.forEach(w -> w.send("start"));
        for (SwarmProcess w : workers) {
            w.await("started", 300_000);
        }
        return at;
    }

    /** How many minions are signed in now. */
    public int signedIn() throws IOException {
        int n = 0;
        for (SwarmProcess w : workers) {
            n += Integer.parseInt(w.ask("status", "status", 60_000).split(" ")[0]);
        }
        return n;
    }

    /** The sign-in instants (epoch ms) of every minion whose last sign-in was at or after {@code sinceEpochMs}. */
    public long[] signInsSince(long sinceEpochMs) throws IOException {
        List<Long> all = new ArrayList<>();
        for (SwarmProcess w : workers) {
            String list = w.ask("signins " + sinceEpochMs, "signins", 60_000);
            if (!list.isBlank()) {
                Arrays.stream(list.split(",")).map(Long::parseLong).forEach(all::add);
            }
        }
        return all.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    /** The sum over the worker JVMs (RSS, CPU, fds, threads). */
    public ProcSample sample() {
        long rss = 0;
        long cpu = 0;
        int fds = 0;
        int threads = 0;
        for (SwarmProcess w : workers) {
            ProcSample s = w.sample();
            rss += s.rssKiB();
            cpu += s.cpuMillis();
            fds += s.fds();
            threads += s.threads();
        }
        return new ProcSample(rss, cpu, fds, threads);
    }

    /** CPU milliseconds by thread name (numbers stripped, as {@link io.jsalt.bench.harness.TreeCpu#perThreadName}), summed over the worker JVMs. */
    public java.util.Map<String, Long> cpuByThreadName() {
        java.util.Map<String, Long> sum = new java.util.TreeMap<>();
        for (SwarmProcess w : workers) {
            io.jsalt.bench.harness.TreeCpu.perThreadName(w.pid()).forEach((name, ms) -> sum.merge(name, ms, Long::sum));
        }
        return sum;
    }

    public int jvms() {
        return workers.size();
    }

    @Override
    public void close() {
        workers.parallelStream().forEach(SwarmProcess::close);
    }
}
