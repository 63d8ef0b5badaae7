package io.jsalt.cli.jsalt;

import io.jsalt.master.events.LocalEventClient;
import io.jsalt.transport.event.EventFrame;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Collects {@code salt/job/<jid>/ret/<id>} events for one job until every expected minion has answered
 * or the timeout passes. The event reader was connected before the job was published and queues every
 * event, so a fast minion's return is never lost to the publish round trip.
 */
final class JobGatherer {
    /** One minion's answer. */
    record Answer(Object ret, int retcode) {}

    private final LocalEventClient events;

    JobGatherer(LocalEventClient events) {
        this.events = events;
    }

    Map<String, Answer> gather(String jid, Set<String> expected, Duration timeout, BiConsumer<String, Answer> onAnswer) throws IOException {
        String prefix = "salt/job/" + jid + "/ret/";
        Map<String, Answer> answers = new LinkedHashMap<>();
        Set<String> waiting = new LinkedHashSet<>(expected);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!waiting.isEmpty()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            var next = events.next(Duration.ofNanos(left));
            if (next.isPresent()) {
                accept(next.get(), prefix, answers, waiting, onAnswer);
            }
        }
        return answers;
    }

    private static void accept(EventFrame e, String prefix, Map<String, Answer> answers, Set<String> waiting,
            BiConsumer<String, Answer> onAnswer) {
        if (!e.tag().startsWith(prefix)) {
            return;
        }
        String id = e.tag().substring(prefix.length());
        if (answers.containsKey(id)) {
            return;
        }
        Object retcode = e.data().get("retcode");
        Answer a = new Answer(e.data().get("return"), retcode instanceof Number n ? n.intValue() : 0);
        answers.put(id, a);
        waiting.remove(id);
        onAnswer.accept(id, a);
    }
}
