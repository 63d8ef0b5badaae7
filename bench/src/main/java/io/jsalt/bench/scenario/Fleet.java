package io.jsalt.bench.scenario;

import io.jsalt.bench.client.JobClient;
import io.jsalt.bench.harness.MasterProcess;
import io.jsalt.bench.swarm.Swarm;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A master process and a swarm of N pre-accepted minions in a run folder, brought up together and
 * torn down together: what most scenarios start from.
 */
final class Fleet implements AutoCloseable {
    final MasterProcess master;
    final Swarm swarm;
    final Path root;

    private Fleet(MasterProcess master, Swarm swarm, Path root) {
        this.master = master;
        this.swarm = swarm;
        this.root = root;
    }

    /** Starts the master and the swarm's JVMs; the minions are not started yet. */
    static Fleet launch(BenchOptions o, String name, int n, List<String> masterConfig) throws IOException {
        Path root = o.runDir(name + "-" + n);
        List<String> config = new ArrayList<>(List.of("worker_threads: " + o.workerThreads()));
        if (!o.signReturns()) {
            config.add("require_minion_sign_messages: False");
        }
        config.addAll(masterConfig);
        MasterProcess master = new MasterProcess(root, o.masterJvm(), config);
        try {
            master.start();
            Swarm swarm = Swarm.launch(new Swarm.Options(n, o.jvmsFor(n), o.swarmKind(), o.reauthDelay(), o.signReturns(), o.swarmJvm(), o.swarmIoThreads(),
                    o.swarmSubsPerThread()),
                    master, root, o.cacheDir());
            return new Fleet(master, swarm, root);
        } catch (IOException | RuntimeException e) {
            master.close();
            throw e;
        }
    }

    /** Starts the minions and waits until all are signed in; false on timeout. */
    boolean startAndSignIn(Duration timeout) throws IOException {
        swarm.start();
        return awaitSignedIn(timeout);
    }

    boolean awaitSignedIn(Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (swarm.signedIn() < swarm.size()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            pause(100);
        }
        return true;
    }

    /**
     * Pings everyone until one ping is answered by all (the last subscriptions may still be reaching the
     * publisher, ZeroMQ's slow joiner); true when that happened within the tries.
     */
    boolean warmUp(JobClient client, int tries) throws IOException {
        // long enough for the previous ping to drain: a new one on top of a backlog only grows it
        Duration wait = Duration.ofSeconds(Math.max(30, swarm.size() / 80));
        for (int i = 0; i < tries; i++) {
            JobClient.Published p = client.publish("*", "test.ping", List.of());
            Map<String, Long> got = client.gather(p, wait);
            if (got.size() >= swarm.size()) {
                return true;
            }
            pause(500);
        }
        return false;
    }

    static void pause(long ms) {
        MasterProcess.pause(ms);
    }

    @Override
    public void close() {
        swarm.close();
        master.close();
    }
}
