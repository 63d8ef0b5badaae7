package io.jsalt.minion.testing;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Every log line written through slf4j in this test JVM (see {@link CapturingLoggerProvider}), so a test
 * can check that a decision was logged. Lines carry a per-test marker (a jid, an id) to stay independent.
 */
public final class CapturedLogs {
    /** One formatted log line. */
    public record Line(String level, String logger, String message) {
        @Override
        public String toString() {
            return level + " " + logger + ": " + message;
        }
    }

    private static final ConcurrentLinkedQueue<Line> LINES = new ConcurrentLinkedQueue<>();

    private CapturedLogs() {}

    static void add(Line line) {
        LINES.add(line);
    }

    /** The lines at {@code level} whose message contains {@code text}. */
    public static List<Line> matching(String level, String text) {
        return LINES.stream().filter(l -> l.level().equals(level) && l.message().contains(text)).toList();
    }

    /** Every line whose message contains {@code text}, any level. */
    public static List<Line> containing(String text) {
        return LINES.stream().filter(l -> l.message().contains(text)).toList();
    }
}
