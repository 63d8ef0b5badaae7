package io.jsalt.minion.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The exit watch: one helper with a pidfd per process tells each exit, without polling. */
class ExitWatchTest {
    private final Set<Long> exited = ConcurrentHashMap.newKeySet();
    private final List<Process> started = new ArrayList<>();
    private ExitWatch watch;

    @AfterEach
    void stop() {
        if (watch != null) {
            watch.close();
        }
        started.forEach(Process::destroyForcibly);
    }

    private Process sleeper() throws Exception {
        Process p = new ProcessBuilder("sleep", "1000").start();
        started.add(p);
        return p;
    }

    private static long ticks(Process p) {
        return ProcStart.of(p.pid()).orElseThrow();
    }

    @Test
    void tellsTheExitOfEachWatchedProcessAndOnlyThose() throws Exception {
        watch = new ExitWatch(ExitWatch.PERL, exited::add, "exitwatch-test");
        Process a = sleeper();
        Process b = sleeper();
        Process c = sleeper();
        assertThat(watch.watch(a.pid(), ticks(a))).isTrue();
        assertThat(watch.watch(b.pid(), ticks(b))).isTrue();
        assertThat(watch.watch(c.pid(), ticks(c))).isTrue();
        long helper = watch.helperPid();
        assertThat(helper).isPositive();
        // named once Perl has read the script
        await().atMost(Duration.ofSeconds(10)).until(() -> CommandLines.commandLine(Path.of("/proc", Long.toString(helper)))
                .filter(line -> line.startsWith("jsalt-exitwatch")).isPresent());

        b.destroyForcibly().waitFor();
        await().atMost(Duration.ofSeconds(10)).until(() -> exited.contains(b.pid()));
        assertThat(exited).containsExactly(b.pid());
        assertThat(watch.polled(a.pid())).isFalse();

        a.destroyForcibly().waitFor();
        await().atMost(Duration.ofSeconds(10)).until(() -> exited.contains(a.pid()));
        assertThat(exited).containsExactlyInAnyOrder(a.pid(), b.pid());

        watch.close();
        await().atMost(Duration.ofSeconds(10)).until(() -> ProcStart.of(helper).isEmpty());
    }

    @Test
    void aPidThatIsGoneOrHasAnotherStartTimeIsToldAsExitedAtOnce() throws Exception {
        watch = new ExitWatch(ExitWatch.PERL, exited::add, "exitwatch-test");
        Process p = sleeper();
        // the pid of a process that started at another time: a reused pid, never watched as the program's
        watch.watch(p.pid(), ticks(p) + 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> exited.contains(p.pid()));
        assertThat(p.isAlive()).isTrue();

        Process gone = sleeper();
        long goneTicks = ticks(gone);
        gone.destroyForcibly().waitFor();
        watch.watch(gone.pid(), goneTicks);
        await().atMost(Duration.ofSeconds(10)).until(() -> exited.contains(gone.pid()));
    }

    @Test
    void withoutPerlEveryPidIsPolled() throws Exception {
        watch = new ExitWatch(Path.of("/nonexistent/perl"), exited::add, "exitwatch-test");
        Process p = sleeper();
        assertThat(watch.watch(p.pid(), ticks(p))).isFalse();
        assertThat(watch.polled(p.pid())).isTrue();
        assertThat(watch.helperPid()).isZero();
    }
}
