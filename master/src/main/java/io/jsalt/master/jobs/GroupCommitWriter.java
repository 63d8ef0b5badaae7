package io.jsalt.master.jobs;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SQLite job cache's one writer thread ({@code jsalt-job-cache-writer}, owner of the writer connection):
 * writes run in the order they were asked for, and the small ones that wait together (returns, jobs) are
 * committed in one transaction, so a burst of returns pays SQLite's commit once per group instead of once per
 * return (it was a sixth of a jsalt master's CPU per return under {@code jsalt-bench master-capacity}). Each
 * caller still waits until its own write has committed. A group in which one write fails is rolled back and
 * its writes are run again one by one, so a bad write costs only itself. Writes that manage their own
 * transaction (pruning) always run alone.
 */
final class GroupCommitWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitWriter.class);
    /** Writes committed together at most. */
    static final int MAX_GROUP = 256;

    /** One write on the writer connection. */
    interface Write<T> {
        T run() throws SQLException;
    }

    private record Pending<T>(Write<T> task, boolean groupable, CompletableFuture<T> done) {
        void runAlone() {
            try {
                done.complete(task.run());
            } catch (SQLException | RuntimeException | Error e) {
                // an Error too: the caller gets it, and the thread every other write waits for goes on
                done.completeExceptionally(e);
            }
        }
    }

    /** The writer was closed before the write could run. */
    static final class ClosedException extends RuntimeException {
        ClosedException() {
            super("the job cache writer is closed");
        }
    }

    private static final Pending<Void> STOP = new Pending<>(() -> null, false, new CompletableFuture<>());

    private final Connection writer;
    private final BlockingQueue<Pending<?>> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile boolean closed;

    GroupCommitWriter(Connection writer) {
        this.writer = writer;
        this.thread = new Thread(this::loop, "jsalt-job-cache-writer");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Runs {@code task} on the writer thread and waits until it has committed.
     *
     * @param groupable whether it may share a transaction with the writes waiting beside it (it must not
     *     commit or change the connection's auto-commit itself)
     * @throws ExecutionException with the write's own failure
     * @throws ClosedException when the writer is closed
     */
    <T> T run(Write<T> task, boolean groupable) throws ExecutionException, InterruptedException {
        Pending<T> p = new Pending<>(task, groupable, new CompletableFuture<>());
        synchronized (this) {
            if (closed) {
                throw new ClosedException();
            }
            queue.add(p);
        }
        return p.done().get();
    }

    private void loop() {
        List<Pending<?>> group = new ArrayList<>(MAX_GROUP);
        while (true) {
            Pending<?> first;
            try {
                first = queue.take();
            } catch (InterruptedException e) {
                return; // close() waited long enough
            }
            if (first == STOP) {
                return;
            }
            group.clear();
            group.add(first);
            while (first.groupable() && group.size() < MAX_GROUP && queue.peek() != null && queue.peek().groupable()) {
                group.add(queue.poll());
            }
            if (group.size() == 1) {
                first.runAlone();
            } else {
                commitTogether(group);
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void commitTogether(List<Pending<?>> group) {
        List<Object> results = new ArrayList<>(group.size());
        try {
            writer.setAutoCommit(false);
            for (Pending<?> p : group) {
                results.add(p.task().run());
            }
            writer.commit();
        } catch (SQLException | RuntimeException | Error e) {
            rollbackQuietly();
            LOG.debug("job cache: a group of {} writes failed ({}): each runs alone", group.size(), e.getMessage());
            restoreAutoCommit();
            group.forEach(Pending::runAlone);
            return;
        }
        restoreAutoCommit();
        for (int i = 0; i < group.size(); i++) {
            ((CompletableFuture) group.get(i).done()).complete(results.get(i));
        }
    }

    private void rollbackQuietly() {
        try {
            writer.rollback();
        } catch (SQLException e) {
            LOG.warn("job cache: rollback failed: {}", e.getMessage());
        }
    }

    private void restoreAutoCommit() {
        try {
            writer.setAutoCommit(true);
        } catch (SQLException e) {
            LOG.warn("job cache: cannot return to auto-commit: {}", e.getMessage());
        }
    }

    /** Writes waiting for the thread now: for tests. */
    int queued() {
        return queue.size();
    }

    /** Refuses new writes, lets the ones asked for already commit (up to {@code waitSeconds}), then ends the thread. */
    boolean closeWithin(long waitSeconds) {
        synchronized (this) {
            closed = true;
            queue.add(STOP);
        }
        try {
            thread.join(TimeUnit.SECONDS.toMillis(waitSeconds));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            thread.interrupt();
            Pending<?> left;
            while ((left = queue.poll()) != null) {
                left.done().completeExceptionally(new ClosedException());
            }
            return false;
        }
        return true;
    }

    @Override
    public void close() {
        closeWithin(30);
    }
}
