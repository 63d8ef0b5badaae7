package io.jsalt.master.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job cache's writer thread on a real SQLite file: writes that wait together share one transaction, a
 * failing one costs only itself, and a closed writer lets what was asked commit and refuses the rest. A first
 * write that holds the thread until released lines the others up, so the grouping is not left to timing.
 */
class GroupCommitWriterTest {
    @TempDir
    Path cachedir;
    Connection connection;
    GroupCommitWriter writer;
    final ExecutorService callers = Executors.newFixedThreadPool(8);

    @BeforeEach
    void open() throws SQLException {
        connection = SqliteStore.openWriter(cachedir);
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TABLE t (v INTEGER UNIQUE)");
        }
        writer = new GroupCommitWriter(connection);
    }

    @AfterEach
    void close() throws SQLException {
        callers.shutdownNow();
        writer.close();
        connection.close();
    }

    @Test
    void writesThatWaitTogetherShareOneTransactionAndEachGetsItsOwnAnswer() throws Exception {
        CountDownLatch release = holdTheWriter();
        List<Future<Boolean>> inGroup = new ArrayList<>();
        List<Future<Integer>> inserted = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            int v = i % 3; // every value twice: the second insert of each is refused by the UNIQUE constraint
            inserted.add(callers.submit(() -> writer.run(() -> insert(v), true)));
        }
        inGroup.add(callers.submit(() -> writer.run(() -> !connection.getAutoCommit(), true)));
        awaitQueued(7);

        release.countDown();

        assertThat(inGroup.get(0).get(30, TimeUnit.SECONDS)).as("ran inside the group's transaction").isTrue();
        int total = 0;
        for (Future<Integer> f : inserted) {
            total += f.get(30, TimeUnit.SECONDS);
        }
        assertThat(total).isEqualTo(3);
        assertThat(count()).isEqualTo(3);
        assertThat(connection.getAutoCommit()).isTrue();
    }

    @Test
    void aWriteThatFailsInAGroupCostsOnlyItself() throws Exception {
        CountDownLatch release = holdTheWriter();
        List<Future<Integer>> good = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int v = 100 + i;
            good.add(callers.submit(() -> writer.run(() -> insert(v), true)));
        }
        Future<Integer> bad = callers.submit(() -> writer.run(() -> {
            try (Statement s = connection.createStatement()) {
                return s.executeUpdate("INSERT INTO no_such_table VALUES (1)");
            }
        }, true));
        awaitQueued(6);

        release.countDown();

        for (Future<Integer> f : good) {
            assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        }
        assertThatThrownBy(() -> bad.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().cause().isInstanceOf(SQLException.class);
        assertThat(count()).isEqualTo(5);
    }

    @Test
    void aWriteThatThrowsAnErrorReachesItsCallerAndTheWriterGoesOn() throws Exception {
        assertThatThrownBy(() -> writer.run(() -> {
            throw new OutOfMemoryError("a write too big for memory");
        }, false)).isInstanceOf(ExecutionException.class).cause().isInstanceOf(OutOfMemoryError.class);

        assertThat(writer.run(() -> insert(9), true)).isEqualTo(1);
    }

    @Test
    void closingLetsTheWritesAskedForCommitAndRefusesNewOnes() throws Exception {
        CountDownLatch release = holdTheWriter();
        Future<Integer> asked = callers.submit(() -> writer.run(() -> insert(7), true));
        awaitQueued(1);
        Future<Boolean> closing = callers.submit(() -> writer.closeWithin(30));

        release.countDown();

        assertThat(closing.get(30, TimeUnit.SECONDS)).isTrue();
        assertThat(asked.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        assertThatThrownBy(() -> writer.run(() -> insert(8), true)).isInstanceOf(GroupCommitWriter.ClosedException.class);
        assertThat(count()).isEqualTo(1);
    }

    @Test
    void handedOverWritesAreAnsweredInTheirOrderOnlyOnceCommittedAndTheCallerDoesNotWait() throws Exception {
        CountDownLatch release = holdTheWriter();
        List<String> heard = java.util.Collections.synchronizedList(new ArrayList<>());
        try (Connection reader = SqliteStore.openReader(cachedir)) {
            List<CompletableFuture<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                int v = 200 + i;
                // handed over from this thread while the writer is held: submit returns before anything ran
                CompletableFuture<Integer> f = writer.submit(() -> insert(v), 10);
                answers.add(f.whenComplete((n, e) -> heard.add(v + (visible(reader, v) ? " committed" : " NOT committed"))));
            }
            assertThat(answers).noneMatch(CompletableFuture::isDone);

            release.countDown();

            for (CompletableFuture<Integer> f : answers) {
                assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo(1);
            }
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                expected.add((200 + i) + " committed");
            }
            assertThat(heard).containsExactlyElementsOf(expected);
        }
        assertThat(writer.room()).as("every answered write gave its room back").isEqualTo(GroupCommitWriter.MAX_UNANSWERED_BYTES);
    }

    @Test
    void handingOverWaitsForRoomOnceTheUnansweredWritesFillTheBound() throws Exception {
        writer.close();
        writer = new GroupCommitWriter(connection, 3 * GroupCommitWriter.MIN_WEIGHT);
        CountDownLatch release = holdTheWriter();
        List<CompletableFuture<Integer>> answers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int v = 300 + i;
            answers.add(writer.submit(() -> insert(v), 1)); // a small write counts MIN_WEIGHT: three fill the bound
        }
        assertThat(writer.room()).isZero();
        java.util.concurrent.atomic.AtomicReference<Thread> caller = new java.util.concurrent.atomic.AtomicReference<>();
        Future<CompletableFuture<Integer>> fourth = callers.submit(() -> {
            caller.set(Thread.currentThread());
            return writer.submit(() -> insert(303), 1);
        });
        // it waits for room (parked) while the writer is held and nothing is answered: not handed over
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                .until(() -> caller.get() != null && caller.get().getState() == Thread.State.WAITING);
        assertThat(fourth.isDone()).isFalse();
        assertThat(writer.queued()).isEqualTo(3);

        release.countDown();

        assertThat(fourth.get(30, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS)).isEqualTo(1);
        for (CompletableFuture<Integer> f : answers) {
            assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        }
        assertThat(count()).isEqualTo(4);
    }

    @Test
    void aHandedOverWriteThatFailsInAGroupCostsOnlyItself() throws Exception {
        CountDownLatch release = holdTheWriter();
        List<CompletableFuture<Integer>> good = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int v = 400 + i;
            good.add(writer.submit(() -> insert(v), 10));
        }
        CompletableFuture<Integer> bad = writer.submit(() -> {
            try (Statement s = connection.createStatement()) {
                return s.executeUpdate("INSERT INTO no_such_table VALUES (1)");
            }
        }, 10);
        for (int i = 3; i < 6; i++) {
            int v = 400 + i;
            good.add(writer.submit(() -> insert(v), 10));
        }

        release.countDown();

        for (CompletableFuture<Integer> f : good) {
            assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        }
        assertThatThrownBy(() -> bad.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(SQLException.class);
        assertThat(count()).isEqualTo(6);
        assertThat(writer.room()).isEqualTo(GroupCommitWriter.MAX_UNANSWERED_BYTES);
    }

    @Test
    void closingCommitsAndAnswersTheHandedOverWritesAndLetsGoOfACallerWaitingForRoom() throws Exception {
        writer.close();
        writer = new GroupCommitWriter(connection, 2 * GroupCommitWriter.MIN_WEIGHT);
        CountDownLatch release = holdTheWriter();
        CompletableFuture<Integer> first = writer.submit(() -> insert(500), 1);
        CompletableFuture<Integer> second = writer.submit(() -> insert(501), 1);
        Future<CompletableFuture<Integer>> waitingForRoom = callers.submit(() -> writer.submit(() -> insert(502), 1));
        Future<Boolean> closing = callers.submit(() -> writer.closeWithin(30));
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(waitingForRoom::isDone);
        assertThatThrownBy(waitingForRoom::get).cause().isInstanceOf(GroupCommitWriter.ClosedException.class);

        release.countDown();

        assertThat(closing.get(30, TimeUnit.SECONDS)).isTrue();
        assertThat(first.getNow(-1)).as("answered before close returned").isEqualTo(1);
        assertThat(second.getNow(-1)).isEqualTo(1);
        assertThatThrownBy(() -> writer.submit(() -> insert(503), 1)).isInstanceOf(GroupCommitWriter.ClosedException.class);
        assertThat(count()).isEqualTo(2);
    }

    private static boolean visible(Connection reader, int v) {
        try (PreparedStatement s = reader.prepareStatement("SELECT 1 FROM t WHERE v = ?")) {
            s.setInt(1, v);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Occupies the writer thread with a write that waits for the returned latch, once it has started. */
    private CountDownLatch holdTheWriter() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        callers.submit(() -> writer.run(() -> {
            started.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        }, false));
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
        return release;
    }

    private void awaitQueued(int n) {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> writer.queued() >= n);
    }

    private int insert(int v) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement("INSERT INTO t (v) VALUES (?) ON CONFLICT (v) DO NOTHING")) {
            s.setInt(1, v);
            return s.executeUpdate();
        }
    }

    private int count() throws SQLException {
        try (Connection reader = SqliteStore.openReader(cachedir); Statement s = reader.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
