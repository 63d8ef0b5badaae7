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
        String status = procStatus(); // read once: the dispositions do not change while this runs
        for (String name : IGNORED_IS_A_PROBLEM) {
            if (handlers.containsKey(name) && !missing.contains(name) && isIgnored(SIGNAL_NUMBERS.get(name), status)) {
                // the JVM accepts a handler for a signal ignored since start and never installs it (nohup)
                missing.add(name);
                if (why.isEmpty()) {
                    why = "SIG" + name + " is ignored by this process, as whatever started it asked (nohup?)";
                }
            }
        }
        return new Installed(List.copyOf(missing), why);
    }

    /** Ignored by a daemon's parent for a reason of its own: INT in a shell's background job is the usual case. */
    private static final List<String> IGNORED_IS_A_PROBLEM = List.of("HUP", "TERM", "USR2");
    private static final Map<String, Integer> SIGNAL_NUMBERS = Map.of("HUP", 1, "TERM", 15, "USR2", 12);

    /** Whether {@code status} (the text of /proc/PID/status) says signal {@code number} is ignored; false when unknown. */
    static boolean isIgnored(int number, String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("SigIgn:")) {
                try {
                    return new java.math.BigInteger(line.substring(7).trim(), 16).testBit(number - 1);
                } catch (NumberFormatException e) {
                    return false;
                }
            }
        }
        return false;
    }

    private static String procStatus() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/status"));
        } catch (java.io.IOException | RuntimeException e) {
            return ""; // not Linux: nothing known
        }
    }
}
