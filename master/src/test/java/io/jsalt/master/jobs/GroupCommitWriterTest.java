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
