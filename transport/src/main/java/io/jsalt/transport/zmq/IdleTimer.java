package io.jsalt.transport.zmq;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One timer thread per transport for closing idle request sockets, started on first use: a JVM hosting
 * thousands of minions must not spend a thread per connection on it.
 */
final class IdleTimer implements AutoCloseable {
    private ScheduledThreadPoolExecutor timer;
    private boolean closed;

    /** Runs {@code task} after {@code delayMs} on the timer thread; does nothing once closed. */
    synchronized void schedule(Runnable task, long delayMs) {
        if (closed) {
            return;
        }
        if (timer == null) {
            timer = new ScheduledThreadPoolExecutor(1, r -> {
                Thread t = new Thread(r, "jsalt-req-idle");
                t.setDaemon(true);
                return t;
            });
            timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        }
        try {
            timer.schedule(task, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // shutting down
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
