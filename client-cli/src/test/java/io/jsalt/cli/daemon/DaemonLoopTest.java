package io.jsalt.cli.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.cli.ExitCode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DaemonLoopTest {
    /** Records what the loop asked for, and on which thread. */
    private static final class Recorder implements DaemonLoop.Actions {
        final List<String> calls = new CopyOnWriteArrayList<>();
        final CountDownLatch releaseStop = new CountDownLatch(1);
        volatile boolean blockStop;
        volatile boolean failReload;

        @Override
        public void reload() {
            calls.add("reload@" + Thread.currentThread().getName());
            if (failReload) {
                throw new IllegalStateException("bad config");
            }
        }

        @Override
        public void reopenLogs() {
            calls.add("reopen@" + Thread.currentThread().getName());
        }

        @Override
        public void stop() {
            calls.add("stop@" + Thread.currentThread().getName());
            if (blockStop) {
                try {
                    releaseStop.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private final CompletableFuture<Integer> halted = new CompletableFuture<>();

    private CompletableFuture<ExitCode> runInThread(DaemonLoop loop) {
        CompletableFuture<ExitCode> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                result.complete(loop.run());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "test-main-loop");
        t.start();
        return result;
    }

    @Test
    void requestsAreServedInOrderOnTheLoopsThreadUntilAStop() throws Exception {
        Recorder actions = new Recorder();
        DaemonLoop loop = new DaemonLoop("d", actions, () -> Duration.ofSeconds(10), halted::complete);
        loop.post(new DaemonLoop.Request.Reload());
        loop.post(new DaemonLoop.Request.ReopenLogs());
        loop.post(new DaemonLoop.Request.Stop("SIGTERM"));
        loop.post(new DaemonLoop.Request.Reload());

        ExitCode code = runInThread(loop).get(30, TimeUnit.SECONDS);

        assertThat(code).isEqualTo(ExitCode.OK);
        assertThat(actions.calls).containsExactly("reload@test-main-loop", "reopen@test-main-loop", "stop@test-main-loop");
        assertThat(halted).isNotDone();
    }

    @Test
    void aFailedReloadKeepsTheDaemonServing() throws Exception {
        Recorder actions = new Recorder();
        actions.failReload = true;
        DaemonLoop loop = new DaemonLoop("d", actions, () -> Duration.ofSeconds(10), halted::complete);
        loop.post(new DaemonLoop.Request.Reload());
        loop.post(new DaemonLoop.Request.ReopenLogs());
        loop.post(new DaemonLoop.Request.Stop("SIGINT"));

        assertThat(runInThread(loop).get(30, TimeUnit.SECONDS)).isEqualTo(ExitCode.OK);
        assertThat(actions.calls).hasSize(3);
    }

    @Test
    void aDaemonThatStopsOnItsOwnExitsWithItsCode() throws Exception {
        Recorder actions = new Recorder();
        DaemonLoop loop = new DaemonLoop("d", actions, () -> Duration.ofSeconds(10), halted::complete);
        loop.post(new DaemonLoop.Request.Finished(ExitCode.NO_PERMISSION, "key rejected"));

        assertThat(runInThread(loop).get(30, TimeUnit.SECONDS)).isEqualTo(ExitCode.NO_PERMISSION);
        assertThat(actions.calls).containsExactly("stop@test-main-loop");
    }

    @Test
    void aStopPastTheDeadlineHaltsWithExitCode70() throws Exception {
        Recorder actions = new Recorder();
        actions.blockStop = true;
        DaemonLoop loop = new DaemonLoop("d", actions, () -> Duration.ofMillis(300), halted::complete);
        loop.post(new DaemonLoop.Request.Stop("SIGTERM"));
        CompletableFuture<ExitCode> result = runInThread(loop);

        await().atMost(Duration.ofSeconds(10)).until(halted::isDone);
        assertThat(halted.get()).isEqualTo(70);
        assertThat(result).isNotDone();

        actions.releaseStop.countDown();
        assertThat(result.get(30, TimeUnit.SECONDS)).isEqualTo(ExitCode.OK);
    }
}
