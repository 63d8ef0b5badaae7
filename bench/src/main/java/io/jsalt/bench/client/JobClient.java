package io.jsalt.bench.client;

import io.jsalt.cli.MasterConnection;
import io.jsalt.config.MasterConfig;
import io.jsalt.master.events.LocalEventClient;
import io.jsalt.transport.event.EventFrame;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The benchmark's client of the master, the way {@code jsalt} is one: publish requests on the request
 * port with the local client key, returns read from the master's local event bus (connected before the
 * first publish, so no return is missed). A reader thread stamps each return with the time it arrived,
 * so a return read late (while jobs are still being published) still counts at its arrival. Times are
 * {@link System#nanoTime()}. Publish from one thread at a time.
 */
public final class JobClient implements AutoCloseable {
    /** A published job: its jid, the minions the master expects, and when the publish request was sent. */
    public record Published(String jid, List<String> minions, long sentNanos, long answeredNanos, long sentEpochMs) {}

    private final MasterConnection master;
    private final LocalEventClient events;
    /** jid to (minion id to arrival nanos), filled by the reader thread. */
    private final Map<String, Map<String, Long>> arrivals = new ConcurrentHashMap<>();
    /** jid to (minion id to the master's _stamp of the return event, epoch ms): when the master fired it. */
    private final Map<String, Map<String, Long>> fired = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Long>> gatheredFired = new ConcurrentHashMap<>();
    private final Object arrived = new Object();
    private final Thread reader;
    private volatile boolean running = true;

    public JobClient(MasterConfig config) throws IOException {
        this.events = LocalEventClient.connect(config.sockDir(), Duration.ofSeconds(10));
        this.master = MasterConnection.open(config);
        this.reader = new Thread(this::read, "bench-event-reader");
        reader.setDaemon(true);
        reader.start();
    }

    private void read() {
        while (running) {
            Optional<EventFrame> next;
            try {
                next = events.next(Duration.ofMillis(200));
            } catch (IOException e) {
                return;
            }
            if (next.isEmpty()) {
                continue;
            }
            long now = System.nanoTime();
            String[] parts = next.get().tag().split("/", 5); // salt/job/<jid>/ret/<id>
            if (parts.length == 5 && "job".equals(parts[1]) && "ret".equals(parts[3])) {
                arrivals.computeIfAbsent(parts[2], k -> new ConcurrentHashMap<>()).putIfAbsent(parts[4], now);
                Object stamp = next.get().data().get("_stamp");
                if (stamp != null) {
                    try {
                        long ms = java.time.LocalDateTime.parse(stamp.toString()).toInstant(java.time.ZoneOffset.UTC).toEpochMilli();
                        fired.computeIfAbsent(parts[2], k -> new ConcurrentHashMap<>()).putIfAbsent(parts[4], ms);
                    } catch (java.time.DateTimeException e) {
                        // a master that stamps differently: no split of the latency, nothing else lost
                    }
                }
                synchronized (arrived) {
                    arrived.notifyAll();
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    public Published publish(String tgt, String fun, List<Object> arg) {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "publish");
        load.put("tgt", tgt);
        load.put("fun", fun);
        load.put("arg", arg);
        load.put("tgt_type", "glob");
        load.put("ret", "");
        load.put("jid", "");
        load.put("user", System.getProperty("user.name"));
        load.put("kwargs", Map.of());
        long sentEpochMs = System.currentTimeMillis();
        long sent = System.nanoTime();
        Map<String, Object> reply = master.call(load, Duration.ofSeconds(60));
        long answered = System.nanoTime();
        Object minions = reply.get("minions");
        return new Published(String.valueOf(reply.get("jid")), minions instanceof List<?> l ? (List<String>) l : List.of(), sent, answered, sentEpochMs);
    }

    /**
     * Waits until every minion of {@code job} has answered or {@code timeout} passes; the arrival time of
     * each return, by minion id. The job's returns are forgotten afterwards.
     */
    public Map<String, Long> gather(Published job, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (arrived) {
            while (true) {
                Map<String, Long> got = arrivals.get(job.jid());
                int have = got == null ? 0 : got.size();
                long left = deadline - System.nanoTime();
                if (have >= job.minions().size() || left <= 0 || !reader.isAlive()) {
                    break;
                }
                try {
                    arrived.wait(Math.max(1, Math.min(200, left / 1_000_000)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted");
                }
            }
        }
        Map<String, Long> got = arrivals.remove(job.jid());
        Map<String, Long> stamps = fired.remove(job.jid());
        if (stamps != null) {
            gatheredFired.put(job.jid(), stamps);
        }
        return got == null ? new HashMap<>() : new HashMap<>(got);
    }

    /** The returns of a job that have arrived so far (id to arrival nanos), without waiting or forgetting them. */
    public Map<String, Long> arrivedSoFar(String jid) {
        Map<String, Long> got = arrivals.get(jid);
        return got == null ? Map.of() : new HashMap<>(got);
    }

    /** Drops what was kept for a job (its returns may still arrive and are then kept again). */
    public void forget(String jid) {
        arrivals.remove(jid);
        fired.remove(jid);
        gatheredFired.remove(jid);
    }

    /** For a gathered job: when the master fired each return event (its _stamp, epoch ms), by minion id; once. */
    public Map<String, Long> firedTimes(String jid) {
        Map<String, Long> m = gatheredFired.remove(jid);
        return m == null ? Map.of() : m;
    }

    @Override
    public void close() {
        running = false;
        try {
            reader.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        master.close();
        events.close();
    }
}
