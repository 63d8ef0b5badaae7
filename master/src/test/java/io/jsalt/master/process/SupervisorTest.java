package io.jsalt.master.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SupervisorTest {
    private static final Duration CHECK = Duration.ofMillis(10);
    private Supervisor supervisor;

    @AfterEach
    void closeSupervisor() {
        if (supervisor != null) {
            supervisor.close();
        }
    }

    private Supervisor supervisor(int restartMax, boolean forever, long initialMs, long maxMs) {
        supervisor = new Supervisor(new RestartPolicy(restartMax, Duration.ofSeconds(60), forever,
                Duration.ofMillis(initialMs), Duration.ofMillis(maxMs)), CHECK);
        return supervisor;
    }

    private Supervisor supervisor(int restartMax, boolean forever, Duration closeWait) {
        supervisor = new Supervisor(new RestartPolicy(restartMax, Duration.ofSeconds(60), forever,
                Duration.ofMillis(10), Duration.ofMillis(100)), CHECK, closeWait);
        return supervisor;
    }

    private static long millisBetween(long fromNanos, long toNanos) {
        return TimeUnit.NANOSECONDS.toMillis(toNanos - fromNanos);
    }

    @Test
    void aDeadServiceIsClosedAndStartedAgainAfterABackoffThatDoubles() {
        FakeService worker = new FakeService("mworker-0");
        supervisor(10, false, 100, 10_000).add(worker);
        supervisor.start();

        worker.die("uncaught exception");
        await().atMost(Duration.ofSeconds(5)).until(() -> worker.starts() == 2);
        worker.die("uncaught exception again");
        await().atMost(Duration.ofSeconds(5)).until(() -> worker.starts() == 3);

        assertThat(worker.closes.get()).isEqualTo(2);
        assertThat(supervisor.restarts("mworker-0")).isEqualTo(2);
        assertThat(millisBetween(worker.diedAt.get(0), worker.startedAt.get(1))).isGreaterThanOrEqualTo(100);
        assertThat(millisBetween(worker.diedAt.get(1), worker.startedAt.get(2))).isGreaterThanOrEqualTo(200);
        assertThat(supervisor.isRunning("mworker-0")).isTrue();
        assertThat(supervisor.failure()).isNotDone();
    }

    @Test
    void aRestartThatThrowsIsTriedAgainWithBackoff() {
        FakeService publisher = new FakeService("publisher");
        supervisor(10, false, 20, 10_000).add(publisher);
        supervisor.start();

        publisher.failingStarts.set(2);
        publisher.die("socket error");
        await().atMost(Duration.ofSeconds(5)).until(() -> publisher.starts() == 2);

        assertThat(supervisor.restarts("publisher")).isEqualTo(3);
        // waits of 20, 40 and 80 ms before the three tries
        assertThat(millisBetween(publisher.diedAt.get(0), publisher.startedAt.get(1))).isGreaterThanOrEqualTo(140);
    }

    @Test
    void aRestartThatThrowsAnErrorTakesTheBackoffToo() {
        FakeService maintenance = new FakeService("maintenance");
        supervisor(10, false, 50, 10_000).add(maintenance);
        supervisor.start();

        maintenance.erroringStarts.set(2);
        maintenance.die("thread ended");
        await().atMost(Duration.ofSeconds(5)).until(() -> maintenance.starts() == 2);

        assertThat(supervisor.restarts("maintenance")).isEqualTo(3);
        assertThat(millisBetween(maintenance.diedAt.get(0), maintenance.startedAt.get(1))).isGreaterThanOrEqualTo(50 + 100 + 200);
    }

    @Test
    void aHealthCheckThatThrowsCountsAsADeath() {
        FakeService events = new FakeService("local-events");
        supervisor(10, false, 10, 100).add(events);
        supervisor.start();

        events.healthThrows = true;

        await().atMost(Duration.ofSeconds(5)).until(() -> events.starts() == 2);
        assertThat(events.closes.get()).isEqualTo(1);
    }

    @Test
    void restartingTooFastGivesUpAndReportsTheReason() {
        FakeService worker = new FakeService("mworker-1");
        supervisor(2, false, 1, 50).add(worker);
        supervisor.start();

        for (int i = 1; i <= 2; i++) {
            worker.die("boom " + i);
            int expected = i + 1;
            await().atMost(Duration.ofSeconds(5)).until(() -> worker.starts() == expected);
        }
        worker.die("boom 3");

        String reason = supervisor.failure().orTimeout(5, TimeUnit.SECONDS).join();
        assertThat(reason).contains("mworker-1", "restarting too fast", "2 restarts within 60 s", "boom 3");
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> worker.starts() == 3);
        assertThat(supervisor.isRunning("mworker-1")).isFalse();
    }

    @Test
    void restartForeverKeepsRestartingPastTheBudgetButNoFasterThanTheLongestBackoff() {
        FakeService events = new FakeService("local-events");
        supervisor(2, true, 1, 150).add(events);
        supervisor.start();

        for (int i = 1; i <= 5; i++) {
            events.die("boom " + i);
            int expected = i + 1;
            await().atMost(Duration.ofSeconds(5)).until(() -> events.starts() == expected);
        }

        assertThat(supervisor.failure()).isNotDone();
        assertThat(supervisor.restarts("local-events")).isEqualTo(5);
        for (int i = 2; i < 5; i++) { // the 3rd death onwards is past the budget of 2
            assertThat(millisBetween(events.diedAt.get(i), events.startedAt.get(i + 1))).isGreaterThanOrEqualTo(150);
        }
    }

    @Test
    void closeStopsRestartsAndClosesEveryServiceOnce() {
        FakeService transport = new FakeService("transport");
        FakeService maintenance = new FakeService("maintenance");
        supervisor(5, true, 300, 1_000).add(transport);
        supervisor.add(maintenance);
        supervisor.start();

        transport.die("probe unanswered");
        await().atMost(Duration.ofSeconds(5)).until(() -> transport.closes.get() == 1);
        supervisor.close();

        await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(3)).until(() -> transport.starts() == 1);
        assertThat(maintenance.closes.get()).isEqualTo(1);
        assertThat(transport.closes.get()).isEqualTo(1);
        assertThatThrownBy(() -> supervisor.add(new FakeService("late"))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void dependentsAreClosedBeforeTheirParentAndStartedAgainAfterIt() {
        FakeService transport = new FakeService("transport");
        FakeService requests = new FakeService("request-server");
        FakeService worker = new FakeService("mworker-0");
        supervisor(5, false, 10, 100).add(transport);
        supervisor.add(requests, "transport");
        supervisor.add(worker, "request-server");
        supervisor.start();

        transport.die("dead I/O thread");
        await().atMost(Duration.ofSeconds(5)).until(() -> worker.starts() == 2);

        assertThat(requests.starts()).isEqualTo(2);
        assertThat(requests.closes.get()).isEqualTo(1);
        assertThat(worker.startedAt.get(1)).isGreaterThan(requests.startedAt.get(1));
        assertThat(requests.startedAt.get(1)).isGreaterThan(transport.startedAt.get(1));
        assertThat(supervisor.restarts("transport")).isEqualTo(1);
        assertThat(supervisor.restarts("mworker-0")).as("restarted with its parent, not on its own budget").isZero();
    }

    @Test
    void aRemovedServiceIsClosedAndNoLongerWatched() {
        FakeService worker = new FakeService("mworker-3");
        supervisor(5, false, 1, 10).add(worker);
        supervisor.start();

        supervisor.remove("mworker-3");
        worker.die("stopped by the resize");

        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> worker.starts() == 1);
        assertThat(worker.closes.get()).isEqualTo(1);
        assertThat(supervisor.names()).isEmpty();
    }

    @Test
    void aDeadServiceWhoseCloseNeverReturnsIsGivenUpAndTheFailureReportedEvenWhenRestartingForever() {
        CountDownLatch never = new CountDownLatch(1);
        FakeService transport = new FakeService("transport");
        FakeService publisher = new FakeService("publisher");
        FakeService maintenance = new FakeService("maintenance");
        supervisor(5, true, Duration.ofMillis(200)).add(transport);
        supervisor.add(publisher, "transport");
        supervisor.add(maintenance);
        supervisor.start();

        publisher.closeBlocksUntil = never;
        publisher.die("StackOverflowError in the publisher thread");

        await().atMost(Duration.ofSeconds(10)).until(() -> supervisor.failure().isDone());
        assertThat(supervisor.failure().join()).contains("publisher").contains("did not close within 200 ms")
                .contains("StackOverflowError");
        assertThat(supervisor.isRunning("publisher")).isFalse();
        assertThat(publisher.starts()).as("never started again on top of what it still holds").isEqualTo(1);
        // the supervisor's thread is free: it still watches and restarts the others
        maintenance.die("thread ended");
        await().atMost(Duration.ofSeconds(10)).until(() -> maintenance.starts() == 2);
        never.countDown();
    }

    @Test
    void aDependentWhoseCloseNeverReturnsFailsItsParentsRestart() {
        CountDownLatch never = new CountDownLatch(1);
        FakeService transport = new FakeService("transport");
        FakeService requests = new FakeService("request-server");
        supervisor(5, false, Duration.ofMillis(200)).add(transport);
        supervisor.add(requests, "transport");
        supervisor.start();

        requests.closeBlocksUntil = never;
        transport.die("the request port did not answer 2 health probes in a row");

        await().atMost(Duration.ofSeconds(10)).until(() -> supervisor.failure().isDone());
        assertThat(supervisor.failure().join()).contains("request-server").contains("did not close");
        assertThat(transport.starts()).isEqualTo(1);
        never.countDown();
    }

    @Test
    void closingTheSupervisorDoesNotWaitForEverForAStuckService() {
        CountDownLatch never = new CountDownLatch(1);
        FakeService stuck = new FakeService("publisher");
        FakeService other = new FakeService("maintenance");
        supervisor(5, false, Duration.ofMillis(200)).add(other);
        supervisor.add(stuck);
        stuck.closeBlocksUntil = never;

        supervisor.close();

        assertThat(other.closes.get()).as("the services after the stuck one are closed too").isEqualTo(1);
        never.countDown();
    }
}
