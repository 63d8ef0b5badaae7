package io.jsalt.states.exec;

import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One state run at a time on a minion, as Salt's {@code state} module enforces: a second run is refused with
 * Salt's "is running as PID" message, or waits its turn with {@code queue=True}, or goes ahead with
 * {@code concurrent=True}. It is process-wide on purpose: every registry a minion builds shares the one guard.
 */
final class StateRunGuard {
    static final StateRunGuard MINION = new StateRunGuard();

    private final ReentrantLock lock = new ReentrantLock();
    private volatile Holder holder;

    /** The run that holds the guard. */
    record Holder(String fun, String jid) {
    }

    /** A held turn; closing it lets the next run in. */
    interface Turn extends AutoCloseable {
        @Override
        void close();
    }

    /** A turn at once, or empty when another run holds the guard. */
    Optional<Turn> tryEnter(String fun, String jid) {
        if (!lock.tryLock()) {
            return Optional.empty();
        }
        return Optional.of(enter(fun, jid));
    }

    /** Waits for a turn ({@code queue=True}); a killed job stops waiting. */
    Turn await(String fun, String jid) throws InterruptedException {
        lock.lockInterruptibly();
        return enter(fun, jid);
    }

    private Turn enter(String fun, String jid) {
        holder = new Holder(fun, jid);
        return () -> {
            holder = null;
            lock.unlock();
        };
    }

    /** Salt's {@code state.running}: the message for the run that holds the guard, if one does. */
    Optional<String> running() {
        return holder == null ? Optional.empty() : Optional.of(conflictMessage());
    }

    /** Salt's answer to a second run, word for word. */
    String conflictMessage() {
        Holder h = holder;
        String fun = h == null ? "state" : h.fun();
        String jid = h == null ? "" : h.jid();
        return "The function \"" + fun + "\" is running as PID " + ProcessHandle.current().pid()
                + " and was started at " + jidTime(jid) + " with jid " + jid;
    }

    /** Salt's {@code jid_to_time}: {@code 20261125000102123456} is {@code 2026, Nov 25 00:01:02.123456}. */
    static String jidTime(String jid) {
        if (jid == null || !jid.matches("\\d{20}")) {
            return "";
        }
        String[] months = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
        int month = Integer.parseInt(jid.substring(4, 6));
        if (month < 1 || month > 12) {
            return "";
        }
        return jid.substring(0, 4) + ", " + months[month - 1] + " " + jid.substring(6, 8) + " "
                + jid.substring(8, 10) + ":" + jid.substring(10, 12) + ":" + jid.substring(12, 14) + "."
                + jid.substring(14, 20);
    }
}
