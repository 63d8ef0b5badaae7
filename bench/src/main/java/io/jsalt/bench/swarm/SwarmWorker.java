package io.jsalt.bench.swarm;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.jsalt.bench.swarm.zmtp.NioSwarmTransport;
import io.jsalt.transport.Transport;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;

/**
 * The main of a swarm JVM: many minions on one transport, driven by line commands on stdin, answering
 * with lines that start with {@code @@} on stdout (anything else there is log output). Commands:
 * {@code start}, {@code status}, {@code signins <epoch ms>}, {@code stop}. The end of stdin (the driver
 * died) stops it too, so a swarm never outlives its benchmark.
 */
public final class SwarmWorker {
    static final String REPLY = "@@ ";

    private SwarmWorker() {
    }

    public static void main(String[] args) throws Exception {
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).setLevel(Level.WARN);
        SwarmSettings settings = SwarmSettings.fromArgs(args);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        KeyCache keys = new KeyCache(settings.cacheDir());
        // before "ready", so before any clock starts: this JVM's RSA at C2 speed, as a host of its own would have it
        CryptoWarmUp.run(warmUpRounds());
        // a real minion has its own I/O thread and subscription thread: a JVM of many shares them as little as it can
        Transport transport = transport(settings);
        LightMinion.Shared shared = "light".equals(settings.kind()) ? new LightMinion.Shared(settings) : null;
        List<SwarmMinion> minions = new ArrayList<>();
        for (String id : KeyCache.ids(settings.first(), settings.count())) {
            minions.add(shared != null ? new LightMinion(shared, id, keys, transport) : new RealMinion(settings, id, keys, transport));
        }
        out.println(REPLY + "ready " + minions.size());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        try {
            while ((line = in.readLine()) != null) {
                String[] cmd = line.trim().split(" ");
                switch (cmd[0]) {
                    case "start" -> {
                        long at = System.currentTimeMillis();
                        inParallel(minions, SwarmMinion::start);
                        out.println(REPLY + "started " + at);
                    }
                    case "status" -> out.println(REPLY + "status " + minions.stream().filter(SwarmMinion::isSignedIn).count() + " " + minions.size());
                    case "signins" -> out.println(REPLY + "signins " + signIns(minions, Long.parseLong(cmd[1])));
                    case "stop" -> {
                        return;
                    }
                    default -> out.println(REPLY + "error unknown command " + cmd[0]);
                }
            }
        } finally {
            inParallel(minions, SwarmMinion::close);
            if (shared != null) {
                shared.close();
            }
            transport.close();
            out.println(REPLY + "stopped");
        }
    }

    /**
     * JSALT_BENCH_SWARM_TRANSPORT: {@code zmtp} (default) for the light swarm's own ZMTP over one NIO selector per
     * JVM ({@link NioSwarmTransport}), {@code jeromq} for the product's JeroMQ transport (the swarm before session
     * 15: its I/O threads, reapers and pollers cost the swarm three times the CPU per minion-job, beside the master
     * on the same cores). Real minions always get the product's.
     */
    static Transport transport(SwarmSettings settings) {
        String kind = System.getenv("JSALT_BENCH_SWARM_TRANSPORT");
        kind = kind == null || kind.isBlank() ? "zmtp" : kind.trim();
        if (!kind.equals("jeromq") && !kind.equals("zmtp")) {
            throw new IllegalArgumentException("JSALT_BENCH_SWARM_TRANSPORT: jeromq or zmtp, not " + kind);
        }
        if ("light".equals(settings.kind()) && kind.equals("zmtp")) {
            return new NioSwarmTransport();
        }
        return Transport.createForManyMinions(settings.ioThreads(), settings.subscriptionsPerThread());
    }

    /** JSALT_BENCH_SWARM_WARMUP: rounds of {@link CryptoWarmUp} (default {@link CryptoWarmUp#ROUNDS}; 0: a cold swarm). */
    static int warmUpRounds() {
        String env = System.getenv("JSALT_BENCH_SWARM_WARMUP");
        return env == null || env.isBlank() ? CryptoWarmUp.ROUNDS : Integer.parseInt(env.trim());
    }

    private static String signIns(List<SwarmMinion> minions, long sinceEpochMs) {
        StringJoiner j = new StringJoiner(",");
        for (SwarmMinion m : minions) {
            Instant at = m.signedInAt();
            if (at != null && at.toEpochMilli() >= sinceEpochMs) {
                j.add(Long.toString(at.toEpochMilli()));
            }
        }
        return j.toString();
    }

    private static void inParallel(List<SwarmMinion> minions, java.util.function.Consumer<SwarmMinion> action) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        for (SwarmMinion m : minions) {
            pool.execute(() -> {
                try {
                    action.accept(m);
                } catch (RuntimeException e) {
                    System.err.println("swarm minion failed: " + e);
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.MINUTES);
    }
}
