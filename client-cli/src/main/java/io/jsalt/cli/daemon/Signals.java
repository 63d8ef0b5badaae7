package io.jsalt.cli.daemon;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * POSIX signal handlers through {@code sun.misc.Signal} (module jdk.unsupported): the only way a JVM can
 * answer HUP and USR2. A handler runs on the JVM's signal thread and must only hand work over (post to a
 * queue). A signal the JVM keeps for itself, or a JVM without the API, is reported, not fatal: the
 * shutdown hook still stops the daemon on TERM then.
 */
final class Signals {
    private Signals() {}

    /** Which signals could not be handled, and the first reason. */
    record Installed(List<String> missing, String why) {}

    /** @param handlers signal name without "SIG" → what to run when it arrives */
    static Installed install(Map<String, Runnable> handlers) {
        List<String> missing = new ArrayList<>();
        String why = "";
        for (Map.Entry<String, Runnable> h : new TreeMap<>(handlers).entrySet()) {
            try {
                Runnable action = h.getValue();
                sun.misc.Signal.handle(new sun.misc.Signal(h.getKey()), signal -> action.run());
            } catch (IllegalArgumentException | LinkageError e) {
                // IllegalArgumentException: reserved by the JVM (or HUP ignored under nohup); LinkageError: no jdk.unsupported
                missing.add(h.getKey());
                if (why.isEmpty()) {
                    why = e.toString();
                }
            }
        }
        return new Installed(List.copyOf(missing), why);
    }
}
