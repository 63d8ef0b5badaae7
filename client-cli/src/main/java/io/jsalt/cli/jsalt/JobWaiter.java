package io.jsalt.cli.jsalt;

import io.jsalt.transport.event.EventFrame;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits for a job's returns as Salt's LocalClient.get_iter_returns does: until every expected minion has
 * answered, or {@code timeout} has passed; then it publishes {@code saltutil.find_job <jid>} (tgt_type list) to
 * the minions still silent, waits {@code gather_job_timeout}, and keeps waiting for every minion that says the
 * job is still running there, asking again each round, until none is. A minion that says it runs the job
 * gets {@code timeout} more from that moment.
 */
final class JobWaiter {
    private static final Logger log = LoggerFactory.getLogger(JobWaiter.class);
    static final String FIND_JOB = "saltutil.find_job";

    private final MasterLink master;
    private final Ticker ticker;
    private final long timeout;
    private final long gatherJobTimeout;

    JobWaiter(MasterLink master, Ticker ticker, Duration timeout, Duration gatherJobTimeout) {
        this.master = master;
        this.ticker = ticker;
        this.timeout = timeout.toNanos();
        this.gatherJobTimeout = gatherJobTimeout.toNanos();
    }

    /** The answers of {@code expected} to {@code jid}, each also handed to {@code onAnswer} as it arrives. */
    Map<String, Answer> await(String jid, Collection<String> expected, BiConsumer<String, Answer> onAnswer) throws IOException {
        Map<String, Answer> answers = new LinkedHashMap<>();
        Set<String> waiting = new LinkedHashSet<>(expected);
        long start = ticker.nanoTime();
        Map<String, Long> giveUpAt = new HashMap<>();
        waiting.forEach(id -> giveUpAt.put(id, start + timeout));
        long checkAt = start + timeout;
        boolean running = true; // true at first, so the silent minions are asked at least once
        String findJid = null;
        while (!waiting.isEmpty()) {
            long now = ticker.nanoTime();
            if (now - checkAt >= 0) {
                if (running) {
                    findJid = askWhoIsRunning(jid, waiting);
                    running = false;
                    checkAt = now + gatherJobTimeout;
                    continue;
                }
                if (waiting.stream().allMatch(id -> now - giveUpAt.get(id) >= 0)) {
                    break;
                }
            }
            long wake = now - checkAt < 0 ? checkAt : latest(waiting, giveUpAt);
            Optional<EventFrame> event = master.nextEvent(Duration.ofNanos(Math.max(0, wake - now)));
            if (event.isEmpty()) {
                continue;
            }
            EventFrame e = event.get();
            String id = minionReturning(e, jid);
            if (id != null && waiting.remove(id)) {
                Answer a = Answer.of(e.data());
                answers.put(id, a);
                onAnswer.accept(id, a);
            } else if (findJid != null && (id = minionReturning(e, findJid)) != null && waiting.contains(id)
                    && stillRunning(e.data().get("return"))) {
                log.debug("{} still runs {}", id, jid);
                giveUpAt.put(id, ticker.nanoTime() + timeout);
                running = true;
            }
        }
        return answers;
    }

    /** Publishes find_job to the silent minions; its jid, or null when the master matched none of them. */
    private String askWhoIsRunning(String jid, Set<String> waiting) {
        List<String> ids = new ArrayList<>(waiting);
        log.debug("asking {} whether they still run {}", ids, jid);
        Published p = master.publish(new JobSpec(ids, "list", FIND_JOB, List.of(jid)));
        return p.minions().isEmpty() ? null : p.jid();
    }

    private static long latest(Set<String> waiting, Map<String, Long> giveUpAt) {
        long latest = Long.MIN_VALUE;
        boolean first = true;
        for (String id : waiting) {
            long t = giveUpAt.get(id);
            if (first || t - latest > 0) {
                latest = t;
                first = false;
            }
        }
        return latest;
    }

    /** The minion id of a {@code salt/job/<jid>/ret/<id>} event, else null. */
    static String minionReturning(EventFrame e, String jid) {
        String prefix = "salt/job/" + jid + "/ret/";
        if (!e.tag().startsWith(prefix) || !e.data().containsKey("return")) {
            return null;
        }
        String id = e.tag().substring(prefix.length());
        return id.isEmpty() ? null : id;
    }

    /** find_job answers {} when the job is not running there, else the job's proc data (a text is an error). */
    private static boolean stillRunning(Object findJobReturn) {
        if (!(findJobReturn instanceof Map<?, ?> m) || m.isEmpty()) {
            return false;
        }
        return !(m.get("return") instanceof Map<?, ?> inner && inner.isEmpty()); // Salt's syndic form of "not running"
    }
}
