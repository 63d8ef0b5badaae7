package io.jsalt.master.jobs;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SQLite job cache's one writer thread ({@code jsalt-job-cache-writer}, owner of the writer connection):
 * writes run in the order they were asked for, and the small ones that wait together (returns, jobs) are
 * committed in one transaction, so a burst of returns pays SQLite's commit once per group instead of once per
 * return (it was a sixth of a jsalt master's CPU per return under {@code jsalt-bench master-capacity}). A
 * caller either waits until its own write has committed ({@link #run}) or hands it over ({@link #submit}) and
 * hears of it from this thread after the commit: an MWorker then takes its next request at once, so groups
 * grow with the load instead of holding at most one write per MWorker. Handed-over writes not yet answered
 * are bounded ({@link #MAX_UNANSWERED_BYTES}); a caller waits for room. A group in which one write fails is
 * rolled back and its writes are run again one by one, so a bad write costs only itself. Writes that manage
 * their own transaction (pruning) always run alone.
 */
final class GroupCommitWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitWriter.class);
    /** Writes committed together at most. */
    static final int MAX_GROUP = 256;
    /**
     * What handed-over writes not yet answered may hold, by their own count of bytes ({@link #submit}): a
     * write counts at least {@link #MIN_WEIGHT}, so at most 1,024 wait however small, and a write larger than
     * the whole bound still goes through alone.
     */
    static final int MAX_UNANSWERED_BYTES = 32 << 20;
    static final int MIN_WEIGHT = MAX_UNANSWERED_BYTES / 1024;

    /** One write on the writer connection. */
    interface Write<T> {
        T run() throws SQLException;
    }

    /** {@code weight}: what a handed-over write holds of the bound until it is answered; 0 for a waiting caller's. */
    private record Pending<T>(Write<T> task, boolean groupable, CompletableFuture<T> done, int weight, Semaphore room) {
        void runAlone() {
            T result;
            try {
                result = task.run();
            } catch (SQLException | RuntimeException | Error e) {
                // an Error too: the caller gets it, and the thread every other write waits for goes on
                fail(e);
                return;
            }
            succeed(result);
        }

        /** Room back first, so a caller waiting for it goes on while this one's continuation runs. */
        void succeed(T result) {
            room.release(weight);
            done.complete(result);
        }

        void fail(Throwable e) {
            room.release(weight);
            done.completeExceptionally(e);
        }
    }

    /** The writer was closed before the write could run. */
    static final class ClosedException extends RuntimeException {
        ClosedException() {
            super("the job cache writer is closed");
        }
    }

    private final Pending<Void> stop = new Pending<>(() -> null, false, new CompletableFuture<>(), 0, new Semaphore(0));

    private final Connection writer;
    private final BlockingQueue<Pending<?>> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private final int maxUnanswered;
    /** Room left under the bound of handed-over writes not yet answered. */
    private final Semaphore room;
    private volatile boolean closed;
    /** Writer thread only (read after it ended): transactions of more than one write, and the writes in them. */
    private long groups;
    private long groupedWrites;
    private int largestGroup;

    GroupCommitWriter(Connection writer) {
        this(writer, MAX_UNANSWERED_BYTES);
    }

    /** With another bound of handed-over writes not yet answered (tests). */
    GroupCommitWriter(Connection writer, int maxUnansweredBytes) {
        this.writer = writer;
        this.maxUnanswered = maxUnansweredBytes;
        this.room = new Semaphore(maxUnansweredBytes);
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
        Pending<T> p = new Pending<>(task, groupable, new CompletableFuture<>(), 0, room);
        synchronized (this) {
            if (closed) {
                throw new ClosedException();
            }
            queue.add(p);
        }
        return p.done().get();
    }

    /**
     * Hands {@code task} (a groupable write) over without waiting for it: the future completes on the writer
     * thread once it has committed (or failed), so what depends on it runs there and must be quick. When the
     * writes handed over and not yet answered hold the whole bound, this waits for room (backpressure).
     *
     * @param bytes about what the write holds in memory until it has run (at least {@link #MIN_WEIGHT} is counted)
     * @throws ClosedException when the writer is closed, or closes while this waits for room
     */
    <T> CompletableFuture<T> submit(Write<T> task, long bytes) throws InterruptedException {
        int weight = (int) Math.min(maxUnanswered, Math.max(MIN_WEIGHT, bytes));
        room.acquire(weight);
        Pending<T> p = new Pending<>(task, true, new CompletableFuture<>(), weight, room);
        synchronized (this) {
            if (closed) {
                room.release(weight);
                throw new ClosedException();
            }
            queue.add(p);
        }
        return p.done();
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
            if (first == stop) {
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
        groups++;
        groupedWrites += group.size();
        largestGroup = Math.max(largestGroup, group.size());
        for (int i = 0; i < group.size(); i++) {
            ((Pending) group.get(i)).succeed(results.get(i));
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

    /** Room left under the bound of handed-over writes not yet answered: for tests. */
    int room() {
        return room.availablePermits();
    }

    /**
     * Refuses new writes, lets the ones asked for or handed over already commit and be answered (up to
     * {@code waitSeconds}), then ends the thread. A caller waiting for room is let go (it is refused).
     */
    boolean closeWithin(long waitSeconds) {
        synchronized (this) {
            closed = true;
            queue.add(stop);
        }
        // wakes any caller waiting for room: it finds the writer closed and gives its room back
        room.release(maxUnanswered);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(waitSeconds));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!thread.isAlive() && groups > 0) {
            // what the group commit did for this master's life (the bench reads it): its writes per commit
            LOG.info("job cache writer: {} writes committed in {} groups (mean {}, largest {})", groupedWrites, groups,
                    String.format(java.util.Locale.ROOT, "%.1f", (double) groupedWrites / groups), largestGroup);
        }
        if (thread.isAlive()) {
            thread.interrupt();
            Pending<?> left;
            while ((left = queue.poll()) != null) {
                left.fail(new ClosedException());
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
