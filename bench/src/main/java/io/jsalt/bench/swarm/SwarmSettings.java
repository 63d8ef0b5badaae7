package io.jsalt.bench.swarm;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a swarm worker JVM runs: minions {@code first .. first+count-1} against the master on the given
 * ports, under {@code root}. Passed on the worker's command line.
 *
 * @param kind "real" for the product's {@link io.jsalt.minion.Minion}, "light" for {@link LightMinion}
 * @param failoverRetPort with "real": the request port of a second master, listed after the first under
 *     {@code master_type: failover} with {@code master_alive_interval: 1}; 0 for one master
 * @param requestIdleCloseMs with "light": how long a minion keeps its request connection after a request
 *     ({@link RequestIdleBudget})
 * @param ioThreads JeroMQ I/O threads of the worker's transport ({@link #ioThreadsFor})
 * @param subscriptionsPerThread subscriptions each subscription thread of the worker's transport polls
 *     ({@link #SUBSCRIPTIONS_PER_THREAD})
 */
public record SwarmSettings(Path root, Path cacheDir, int retPort, int publishPort, int first, int count,
        int authTimeout, int reauthDelay, boolean signReturns, String kind, int failoverRetPort, long requestIdleCloseMs,
        int ioThreads, int subscriptionsPerThread) {

    /**
     * Minions per JeroMQ I/O thread of a worker JVM. Each minion has a publish connection and, while it speaks, a
     * request connection; an I/O thread walks all of its connections whenever one of them changes what it waits
     * for (each connect, handshake and request does), so one thread for a worker's 2,500 connections made each
     * round of a fan-out O(N²) in the swarm, work a real minion on its own host never does.
     */
    public static final int MINIONS_PER_IO_THREAD = 250;

    /**
     * Subscriptions per subscription thread of a worker JVM. A thread's poll costs O(its subscriptions) and a job
     * to all wakes it about once per subscription, so the transport's default of 512 per thread made each round
     * O(N²) in the swarm too; a real minion polls its one subscription. 25 keeps a JVM of 1,250 at 50 threads.
     */
    public static final int SUBSCRIPTIONS_PER_THREAD = 25;

    /** I/O threads for a worker of {@code minions}: one per {@link #MINIONS_PER_IO_THREAD}, at least 1. */
    public static int ioThreadsFor(int minions) {
        return Math.max(1, (minions + MINIONS_PER_IO_THREAD - 1) / MINIONS_PER_IO_THREAD);
    }

    public SwarmSettings(Path root, Path cacheDir, int retPort, int publishPort, int first, int count,
            int authTimeout, int reauthDelay, boolean signReturns, String kind, int failoverRetPort, long requestIdleCloseMs) {
        this(root, cacheDir, retPort, publishPort, first, count, authTimeout, reauthDelay, signReturns, kind, failoverRetPort,
                requestIdleCloseMs, 1, SUBSCRIPTIONS_PER_THREAD);
    }

    public SwarmSettings(Path root, Path cacheDir, int retPort, int publishPort, int first, int count,
            int authTimeout, int reauthDelay, boolean signReturns, String kind, int failoverRetPort) {
        this(root, cacheDir, retPort, publishPort, first, count, authTimeout, reauthDelay, signReturns, kind, failoverRetPort,
                io.jsalt.minion.channel.MasterChannel.IDLE_CLOSE.toMillis());
    }

    public SwarmSettings(Path root, Path cacheDir, int retPort, int publishPort, int first, int count,
            int authTimeout, int reauthDelay, boolean signReturns, String kind) {
        this(root, cacheDir, retPort, publishPort, first, count, authTimeout, reauthDelay, signReturns, kind, 0);
    }

    List<String> toArgs() {
        return new ArrayList<>(List.of(root.toString(), cacheDir.toString(), Integer.toString(retPort),
                Integer.toString(publishPort), Integer.toString(first), Integer.toString(count),
                Integer.toString(authTimeout), Integer.toString(reauthDelay), Boolean.toString(signReturns), kind,
                Integer.toString(failoverRetPort), Long.toString(requestIdleCloseMs), Integer.toString(ioThreads),
                Integer.toString(subscriptionsPerThread)));
    }

    static SwarmSettings fromArgs(String[] a) {
        return new SwarmSettings(Path.of(a[0]), Path.of(a[1]), Integer.parseInt(a[2]), Integer.parseInt(a[3]),
                Integer.parseInt(a[4]), Integer.parseInt(a[5]), Integer.parseInt(a[6]), Integer.parseInt(a[7]),
                Boolean.parseBoolean(a[8]), a[9], Integer.parseInt(a[10]), Long.parseLong(a[11]), Integer.parseInt(a[12]),
                Integer.parseInt(a[13]));
    }
}
