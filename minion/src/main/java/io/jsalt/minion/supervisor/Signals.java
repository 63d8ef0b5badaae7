package io.jsalt.minion.supervisor;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a stop signal to a child. The JDK sends only TERM ({@link Process#destroy()}) and KILL
 * ({@link Process#destroyForcibly()}); the others go through {@code kill(1)} with the pid of a process
 * this JVM started and still holds (or a descendant of one, seen alive just before), so the pid has not been
 * reused.
 */
final class Signals {
    private static final Logger log = LoggerFactory.getLogger(Signals.class);

    private Signals() {
    }

    /** The signals a program may be stopped or signalled with. */
    static final java.util.Set<String> NAMES = java.util.Set.of("TERM", "HUP", "INT", "QUIT", "KILL", "USR1", "USR2");

    /**
     * {@code name} upper-cased and without SIG.
     *
     * @throws IllegalArgumentException for a signal not in {@link #NAMES}
     */
    static String canonical(String name) {
        String upper = name == null ? "" : name.strip().toUpperCase(java.util.Locale.ROOT);
        String bare = upper.startsWith("SIG") ? upper.substring(3) : upper;
        if (!NAMES.contains(bare)) {
            throw new IllegalArgumentException("signal: expected one of " + new java.util.TreeSet<>(NAMES) + ", got " + name);
        }
        return bare;
    }

    /** @param name a name from {@link #NAMES} */
    static void send(ProcessHandle process, String name) {
        switch (name) {
            case "TERM" -> process.destroy();
            case "KILL" -> process.destroyForcibly();
            default -> kill(process, name);
        }
    }

    private static void kill(ProcessHandle process, String name) {
        if (!process.isAlive()) {
            return;
        }
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!kill.waitFor(5, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
            }
        } catch (IOException e) {
            log.warn("cannot send SIG{} to pid {}: {}; sending SIGTERM", name, process.pid(), e.toString());
            process.destroy();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
