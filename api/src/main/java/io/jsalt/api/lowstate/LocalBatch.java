package io.jsalt.api.lowstate;

import io.jsalt.api.ApiException;
import io.jsalt.master.events.LocalEventClient;
import io.jsalt.transport.event.EventFrame;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * salt-api's {@code local_batch} (Salt's {@code LocalClient.cmd_batch} and {@code salt.cli.batch.Batch}): find
 * the minions that answer a {@code test.ping} on the target, then run the function on at most {@code batch} of
 * them at a time ({@code 3}, or {@code 25%} of the minions that answered), starting the next minion as soon as
 * one returns. The answer is one {@code {minion: return}} per minion, in the order they returned (salt-api yields
 * them so); a minion that does not return within the timeout is {@code {minion: {}}}, as Salt's batch writes it.
 * Every publish (the ping too, as in Salt) goes to the master with the user's credentials, so the master checks
 * each one against their rights.
 */
final class LocalBatch {
    private static final Pattern RET_TAG = Pattern.compile("salt/job/(\\d{20})/ret/(.+)");

    /** Publishes {@code fun} with {@code arg} to a list of minions (or the chunk's target for the ping), answering the jid and the minions expected. */
    interface Publisher {
        Published publish(Object tgt, String tgtType, String fun, List<Object> arg);
    }

    record Published(String jid, List<String> minions) {}

    private final Publisher publisher;
    private final Duration timeout;

    LocalBatch(Publisher publisher, Duration timeout) {
        this.publisher = publisher;
        this.timeout = timeout;
    }

    /**
     * Salt's get_bnum: {@code N%} or {@code %N} of the minions (at least one when any; Salt strips the {@code %} from
     * both ends, as the CLI's {@code -b} does), or a plain count; anything else is a 400.
     */
    static int batchSize(Object batch, int minions) {
        String text = batch == null ? "10%" : String.valueOf(batch).strip();
        try {
            if (text.contains("%")) {
                double share = Double.parseDouble(stripPercent(text)) / 100.0 * minions;
                int size = share < 1 ? (int) Math.ceil(share) : (int) share;
                if (share < 0 || !Double.isFinite(share)) {
                    throw new NumberFormatException(text);
                }
                return size;
            }
            int size = Integer.parseInt(text);
            if (size < 1) {
                throw new NumberFormatException(text);
            }
            return size;
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("Invalid batch data sent: " + text + ": data must be in the form of %10, 10% or 3");
        }
    }

    /** Python's {@code str.strip("%")}: every {@code %} at either end. */
    private static String stripPercent(String text) {
        int from = 0;
        int to = text.length();
        while (from < to && text.charAt(from) == '%') {
            from++;
        }
        while (to > from && text.charAt(to - 1) == '%') {
            to--;
        }
        return text.substring(from, to);
    }

    List<Object> run(LocalEventClient events, Lowstate low, List<Object> arg, Object batch) {
        Published ping = publisher.publish(low.tgt(), low.tgtType(), "test.ping", List.of());
        List<String> up = new ArrayList<>();
        gather(events, Map.of(ping.jid(), new ArrayList<>(ping.minions())), Instant.now().plus(timeout), (jid, id, data) -> up.add(id));
        List<Object> answers = new ArrayList<>();
        if (up.isEmpty()) {
            return answers;
        }
        int size = Math.max(1, batchSize(batch, up.size()));
        Deque<String> waiting = new ArrayDeque<>(up);
        Map<String, List<String>> running = new LinkedHashMap<>();
        Map<String, Instant> deadlines = new LinkedHashMap<>();
        while (!waiting.isEmpty() || !running.isEmpty()) {
            int busy = running.values().stream().mapToInt(List::size).sum();
            if (!waiting.isEmpty() && busy < size) {
                List<String> next = new ArrayList<>();
                while (!waiting.isEmpty() && busy + next.size() < size) {
                    next.add(waiting.poll());
                }
                Published job = publisher.publish(next, "list", low.fun(), arg);
                running.put(job.jid(), new ArrayList<>(next));
                deadlines.put(job.jid(), Instant.now().plus(timeout));
            }
            Instant soonest = deadlines.values().stream().min(Instant::compareTo).orElseThrow();
            gatherOne(events, running, soonest, answers);
            deadlines.keySet().retainAll(running.keySet());
            Instant now = Instant.now();
            for (String jid : List.copyOf(running.keySet())) {
                if (!deadlines.get(jid).isAfter(now)) {
                    running.remove(jid).forEach(id -> answers.add(Map.of(id, Map.of()))); // Salt's {minion: {}} for no return
                    deadlines.remove(jid);
                }
            }
        }
        return answers;
    }

    private interface OnReturn {
        void accept(String jid, String id, Map<String, Object> data);
    }

    /** Waits until one of the running minions returns (recorded, and taken off its job) or {@code until}. */
    private void gatherOne(LocalEventClient events, Map<String, List<String>> running, Instant until, List<Object> answers) {
        Duration left = Duration.between(Instant.now(), until);
        while (!left.isNegative() && !left.isZero()) {
            Optional<EventFrame> next = next(events, left);
            if (next.isPresent() && taken(next.get(), running, (jid, id, data) -> {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put(id, data.get("return"));
                answers.add(one);
            })) {
                running.entrySet().removeIf(e -> e.getValue().isEmpty());
                return;
            }
            left = Duration.between(Instant.now(), until);
        }
    }

    /** Every return of the given jobs until all came or {@code until}. */
    private void gather(LocalEventClient events, Map<String, List<String>> expected, Instant until, OnReturn onReturn) {
        Map<String, List<String>> open = new LinkedHashMap<>(expected);
        open.entrySet().removeIf(e -> e.getValue().isEmpty());
        while (!open.isEmpty()) {
            Duration left = Duration.between(Instant.now(), until);
            if (left.isNegative() || left.isZero()) {
                return;
            }
            next(events, left).ifPresent(e -> taken(e, open, onReturn));
            open.entrySet().removeIf(en -> en.getValue().isEmpty());
        }
    }

    /** Whether {@code event} is the return of a minion one of {@code open}'s jobs waits for; it is then taken off. */
    private static boolean taken(EventFrame event, Map<String, List<String>> open, OnReturn onReturn) {
        Matcher m = RET_TAG.matcher(event.tag());
        if (!m.matches() || !open.containsKey(m.group(1)) || !open.get(m.group(1)).remove(m.group(2))) {
            return false;
        }
        onReturn.accept(m.group(1), m.group(2), event.data());
        return true;
    }

    private static Optional<EventFrame> next(LocalEventClient events, Duration left) {
        try {
            return events.next(left);
        } catch (IOException e) {
            throw new ApiException(503, "Salt Master is not available: lost its event socket: " + e.getMessage());
        }
    }
}
