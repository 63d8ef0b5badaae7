package io.jsalt.transport.zmq;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One timer thread per transport for closing idle request sockets, started on first use: a JVM hosting
 * thousands of minions must not spend a thread per connection on it.
 */
final class IdleTimer implements AutoCloseable {
    private static final long CLOSE_WAIT_MS = 2000;

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

    /**
     * Drops what is scheduled and lets a task that is running finish, so that no timer thread still closes a
     * socket when the transport closes its context: JeroMQ sockets must not be closed by two threads.
     */
    @Override
    public void close() {
        ScheduledThreadPoolExecutor running;
        synchronized (this) {
            closed = true;
            running = timer;
        }
        if (running == null) {
            return;
        }
        running.shutdown();
        try {
            running.awaitTermination(CLOSE_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
