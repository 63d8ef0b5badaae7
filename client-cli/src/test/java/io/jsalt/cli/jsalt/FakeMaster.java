package io.jsalt.cli.jsalt;

import io.jsalt.transport.event.EventFrame;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * A master and its minions on a fake clock, for the waiting and batch logic. Each minion runs a job for a
 * set time and then returns; one that is disconnected never answers anything; one whose return event is
 * lost still has its return stored in the job cache. Time passes only while the CLI waits for an event.
 */
final class FakeMaster implements MasterLink, Ticker {
    static final long SECOND = 1_000_000_000L;

    /** A scripted minion. */
    static final class FakeMinion {
        final String id;
        long runsFor = SECOND / 10;
        boolean connected = true;
        boolean eventLost;
        boolean dropsJob;
        /** False for a minion whose own grains say the job is not for it: it runs nothing. */
        boolean targeted = true;
        int retcode;
        Object ret = true;

        FakeMinion(String id) {
            this.id = id;
        }
    }

    private record Scheduled(long at, long seq, EventFrame event) {}

    private record Stored(long at, Answer answer) {}

    private long now = 1_000 * SECOND;
    private long seq;
    private int jids;
    private final Map<String, FakeMinion> minions = new LinkedHashMap<>();
    private final PriorityQueue<Scheduled> queue = new PriorityQueue<>(Comparator.comparingLong(Scheduled::at).thenComparingLong(Scheduled::seq));
    private final Map<String, Map<String, Stored>> cache = new LinkedHashMap<>();
    private final Map<String, Map<String, Long>> finishAt = new LinkedHashMap<>();
    final List<JobSpec> published = new ArrayList<>();
    final List<Long> publishedAt = new ArrayList<>();
    boolean runnersAvailable = true;
    Set<String> undecided = new LinkedHashSet<>();

    FakeMinion minion(String id) {
        return minions.computeIfAbsent(id, FakeMinion::new);
    }

    @Override
    public long nanoTime() {
        return now;
    }

    void advance(Duration d) {
        now += d.toNanos();
    }

    /** Seconds since the fake clock started. */
    double elapsed() {
        return (now - 1_000 * SECOND) / (double) SECOND;
    }

    List<JobSpec> findJobs() {
        return published.stream().filter(j -> j.fun().equals(JobWaiter.FIND_JOB)).toList();
    }

    @Override
    public Published publish(JobSpec job) {
        published.add(job);
        publishedAt.add(now);
        String jid = "j" + (++jids);
        List<String> matched = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String id : targets(job)) {
            if (minions.containsKey(id)) {
                matched.add(id);
            } else if (job.tgtType().equals("list")) {
                missing.add(id);
            }
        }
        if (job.fun().equals(JobWaiter.FIND_JOB)) {
            String of = (String) job.arg().get(0);
            for (String id : matched) {
                FakeMinion m = minions.get(id);
                Long end = finishAt.getOrDefault(of, Map.of()).get(id);
                if (m.connected) {
                    boolean running = end != null && now < end;
                    schedule(now + SECOND / 100, jid, id, running ? Map.of("jid", of, "fun", "x") : Map.of(), 0);
                }
            }
        } else {
            for (String id : matched) {
                FakeMinion m = minions.get(id);
                if (!m.connected || !m.targeted) {
                    continue;
                }
                long end = now + m.runsFor;
                finishAt.computeIfAbsent(jid, k -> new LinkedHashMap<>()).put(id, m.dropsJob ? now + m.runsFor / 2 : end);
                if (m.dropsJob) {
                    continue;
                }
                cache.computeIfAbsent(jid, k -> new LinkedHashMap<>()).put(id, new Stored(end, new Answer(m.ret, m.retcode)));
                if (!m.eventLost) {
                    schedule(end, jid, id, m.ret, m.retcode);
                }
            }
        }
        List<String> expected = matched.stream().filter(id -> !undecided.contains(id)).toList();
        List<String> sentUndecided = matched.stream().filter(undecided::contains).toList();
        return new Published(jid, expected, missing, sentUndecided);
    }

    private List<String> targets(JobSpec job) {
        if (job.tgt() instanceof List<?> l) {
            return l.stream().map(String::valueOf).toList();
        }
        String glob = (String) job.tgt();
        return minions.keySet().stream().filter(id -> id.matches(glob.replace("*", ".*"))).toList();
    }

    private void schedule(long at, String jid, String id, Object ret, int retcode) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("id", id);
        data.put("jid", jid);
        data.put("return", ret);
        data.put("retcode", retcode);
        queue.add(new Scheduled(at, seq++, new EventFrame("salt/job/" + jid + "/ret/" + id, data)));
    }

    @Override
    public Optional<EventFrame> nextEvent(Duration timeout) {
        Scheduled head = queue.peek();
        if (head != null && head.at() <= now + timeout.toNanos()) {
            queue.poll();
            now = Math.max(now, head.at());
            return Optional.of(head.event());
        }
        now += timeout.toNanos();
        return Optional.empty();
    }

    @Override
    public Map<String, Answer> storedReturns(String jid) {
        Map<String, Answer> stored = new LinkedHashMap<>();
        if (runnersAvailable) {
            cache.getOrDefault(jid, Map.of()).forEach((id, s) -> {
                if (s.at() <= now) {
                    stored.put(id, s.answer());
                }
            });
        }
        return stored;
    }

    @Override
    public Optional<Set<String>> present() {
        if (!runnersAvailable) {
            return Optional.empty();
        }
        Set<String> present = new LinkedHashSet<>();
        minions.values().stream().filter(m -> m.connected).forEach(m -> present.add(m.id));
        return Optional.of(present);
    }

    @Override
    public TargetPreview preview(Object tgt, String tgtType) {
        List<String> all = targets(new JobSpec(tgt, tgtType, "test.ping", List.of()));
        List<String> matched = all.stream().filter(id -> !undecided.contains(id)).sorted().toList();
        return new TargetPreview(matched, List.copyOf(undecided), List.of());
    }
}
