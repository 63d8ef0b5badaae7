package io.jsalt.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Reading CPU time from /proc: a process tree, the children waited for, the threads of a name. */
class TreeCpuTest {
    @Test
    void countsTheCpuOfAChildThatExitedAndWasWaitedFor() throws Exception {
        long before = TreeCpu.waitedChildrenMillis();
        Process p = new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done").start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(TreeCpu.waitedChildrenMillis()).isGreaterThan(before);
    }

    @Test
    void countsOnlyTheThreadsWhoseNameStartsWithAPrefix() throws Exception {
        java.util.concurrent.CountDownLatch spun = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        Thread spinner = new Thread(() -> {
            spin();
            spun.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "tree-cpu-spin");
        spinner.start();
        try {
            assertThat(spun.await(60, TimeUnit.SECONDS)).isTrue();
            long pid = ProcessHandle.current().pid();

            assertThat(TreeCpu.threadMillis(pid, List.of("tree-cpu-spin"))).isPositive();
            assertThat(TreeCpu.threadMillis(pid, List.of("no-such-thread"))).isZero();
            assertThat(TreeCpu.millis(pid)).isGreaterThanOrEqualTo(TreeCpu.threadMillis(pid, List.of("tree-cpu-spin")));
        } finally {
            release.countDown();
            spinner.join();
        }
    }

    @Test
    void usedIsWhatEachNameSpentBetweenTwoReadingsBusiestFirst() {
        java.util.Map<String, Long> before = java.util.Map.of("jsalt-mworker-N", 100L, "iothread-N", 50L, "idle", 7L);
        java.util.Map<String, Long> after = java.util.Map.of("jsalt-mworker-N", 130L, "iothread-N", 110L, "idle", 7L, "CN CompilerThre", 20L);

        assertThat(TreeCpu.used(before, after)).containsExactly(java.util.Map.entry("iothread-N", 60L),
                java.util.Map.entry("jsalt-mworker-N", 30L), java.util.Map.entry("CN CompilerThre", 20L));
    }

    @Test
    void aProcessThatIsGoneReadsAsNothing() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor(30, TimeUnit.SECONDS);

        assertThat(TreeCpu.millis(p.pid())).isZero();
        assertThat(TreeCpu.threadMillis(p.pid(), List.of(""))).isZero();
    }

    private static void spin() {
        long end = System.nanoTime() + 200_000_000L;
        long x = 0;
        while (System.nanoTime() < end) {
            x += System.nanoTime() % 7;
        }
        assertThat(x).isNotNegative();
    }
}
