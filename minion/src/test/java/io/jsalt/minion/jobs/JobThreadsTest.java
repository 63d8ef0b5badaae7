package io.jsalt.minion.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class JobThreadsTest {
    private JobThreads pool;

    @AfterEach
    void shutDown() throws InterruptedException {
        if (pool != null) {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void sequentialJobsReuseOneIdleThread() {
        pool = new JobThreads(20, Duration.ofSeconds(30), "jsalt-job-test");
        List<String> threads = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 30; i++) {
            int before = threads.size();
            pool.execute(() -> threads.add(Thread.currentThread().getName() + "#" + Thread.currentThread().getId()));
            await().pollInterval(Duration.ofMillis(5)).atMost(Duration.ofSeconds(10)).until(() -> threads.size() == before + 1);
            // the next job is offered once this one's thread waits for work again
            await().pollInterval(Duration.ofMillis(5)).atMost(Duration.ofSeconds(10)).until(() -> pool.getActiveCount() == 0);
        }
        assertThat(threads).hasSize(30).allMatch(name -> name.startsWith("jsalt-job-test#"));
        assertThat(pool.getLargestPoolSize()).isEqualTo(1);
        assertThat(threads.stream().distinct().count()).isEqualTo(1);
    }

    @Test
    void runsAtMostTheMaximumAtOnceAndQueuesTheRestInOrder() throws InterruptedException {
        pool = new JobThreads(3, Duration.ofSeconds(30), "jsalt-job-test");
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<Integer> started = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 8; i++) {
            int n = i;
            pool.execute(() -> {
                most.accumulateAndGet(running.incrementAndGet(), Math::max);
                started.add(n);
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    running.decrementAndGet();
                }
            });
        }
        await().pollInterval(Duration.ofMillis(5)).atMost(Duration.ofSeconds(10)).until(() -> started.size() == 3);
        assertThat(pool.getQueue()).hasSize(5);
        assertThat(pool.getPoolSize()).isEqualTo(3);
        release.countDown();
        await().pollInterval(Duration.ofMillis(5)).atMost(Duration.ofSeconds(10)).until(() -> started.size() == 8 && running.get() == 0);
        assertThat(most.get()).isEqualTo(3);
        assertThat(started.subList(3, 8)).containsExactly(3, 4, 5, 6, 7);
    }

    @Test
    void threadsBeyondTheFirstEndAfterTheKeepAlive() {
        pool = new JobThreads(5, Duration.ofMillis(200), "jsalt-job-test");
        CountDownLatch release = new CountDownLatch(1);
        for (int i = 0; i < 5; i++) {
            pool.execute(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        await().pollInterval(Duration.ofMillis(5)).atMost(Duration.ofSeconds(10)).until(() -> pool.getActiveCount() == 5);
        release.countDown();
        await().pollInterval(Duration.ofMillis(5)).atMost(Duration.ofSeconds(10)).until(() -> pool.getPoolSize() == 1);
        AtomicInteger ran = new AtomicInteger();
        pool.execute(ran::incrementAndGet);
        await().pollInterval(Duration.ofMillis(5)).atMost(Duration.ofSeconds(10)).until(() -> ran.get() == 1);
    }

    @Test
    void refusesJobsOnceShutDown() {
        pool = new JobThreads(2, Duration.ofSeconds(30), "jsalt-job-test");
        pool.shutdown();
        assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
    }
}
