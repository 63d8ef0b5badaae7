package io.jsalt.modules.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.JobControl;
import io.jsalt.modules.builtin.system.SystemCommand;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A job is killed by interrupting its thread: every blocking function must then end promptly, children and all. */
class InterruptedJobsTest {

    /** The contract asks for ~100 ms; the bound leaves room for a loaded 2-core machine. */
    private static final Duration PROMPTLY = Duration.ofSeconds(1);

    private final ModuleRegistry registry =
            ModuleRegistry.builtIn(SimpleModuleContext.builder().minionId("kill-test").build());
    private final List<ProcessHandle> children = new CopyOnWriteArrayList<>();
    private final JobControl job = new JobControl() {
        @Override
        public String jid() {
            return "20261122100000000001";
        }

        @Override
        public void childStarted(ProcessHandle child) {
            children.add(child);
        }
    };
    private final List<Thread> threads = new ArrayList<>();

    @TempDir
    Path dir;

    @AfterEach
    void stopEverything() throws InterruptedException {
        for (Thread thread : threads) {
            thread.interrupt();
            thread.join(5_000);
        }
        children.forEach(child -> {
            child.descendants().forEach(ProcessHandle::destroyForcibly);
            child.destroyForcibly();
        });
    }

    /** A call on its own thread, as a minion job runs. */
    private final class Job {
        private final AtomicReference<CallResult> result = new AtomicReference<>();
        private final Thread thread;

        Job(Supplier<CallResult> call) {
            thread = new Thread(() -> result.set(call.get()), "job-under-test");
            threads.add(thread);
            thread.start();
        }

        /** Interrupts the job and returns its result once it ended, failing if that takes longer than PROMPTLY. */
        CallResult kill() {
            thread.interrupt();
            await().atMost(PROMPTLY).until(() -> !thread.isAlive());
            return result.get();
        }

        void awaitSleeping() {
            await().atMost(Duration.ofSeconds(10)).until(() -> thread.getState() == Thread.State.TIMED_WAITING
                    || thread.getState() == Thread.State.WAITING);
        }
    }

    private Job call(String fun, Object... args) {
        return new Job(() -> registry.call(fun, Arrays.asList(args), job));
    }

    private ProcessHandle awaitChild() {
        await().atMost(Duration.ofSeconds(10)).until(() -> !children.isEmpty());
        return children.get(0);
    }

    @Test
    void interruptedCmdRunKillsTheSleepAndReturnsAnError() {
        Job running = call("cmd.run", "sleep 60", ModuleCalls.kwargs("python_shell", false));
        ProcessHandle sleep = awaitChild();
        assertThat(sleep.info().command()).hasValueSatisfying(command -> assertThat(command).endsWith("sleep"));

        CallResult result = running.kill();

        assertThat(result).isEqualTo(CallResult.failed("ERROR: interrupted; the command was killed", 1));
        assertThat(sleep.isAlive()).isFalse();
        assertThat(ProcessHandle.of(sleep.pid()).filter(ProcessHandle::isAlive)).isEmpty();
    }

    @Test
    void interruptedShellCommandKillsEveryDescendant() {
        Job running = call("cmd.run", "sleep 60 & sleep 61 & wait", ModuleCalls.kwargs("python_shell", true));
        ProcessHandle shell = awaitChild();
        await().atMost(Duration.ofSeconds(10)).until(() -> shell.descendants().count() >= 2);
        List<ProcessHandle> sleeps = shell.descendants().toList();

        CallResult result = running.kill();

        assertThat(result.success()).isFalse();
        assertThat(shell.isAlive()).isFalse();
        await().atMost(PROMPTLY).until(() -> sleeps.stream().allMatch(InterruptedJobsTest::ended));
    }

    @Test
    void interruptedRunasCommandKillsRunuserAndTheUsersProcess() {
        Job running = call("cmd.run", "sleep 60", ModuleCalls.kwargs("runas", "nobody"));
        ProcessHandle runuser = awaitChild();
        await().atMost(Duration.ofSeconds(10)).until(() -> runuser.descendants().findAny().isPresent());
        List<ProcessHandle> asNobody = runuser.descendants().toList();

        CallResult result = running.kill();

        assertThat(result.ret()).isEqualTo("ERROR: interrupted; the command was killed");
        assertThat(runuser.isAlive()).isFalse();
        await().atMost(PROMPTLY).until(() -> asNobody.stream().allMatch(InterruptedJobsTest::ended));
    }

    @Test
    void everyCmdFunctionReportsItsChildAndDiesWithTheJob() {
        for (String fun : List.of("cmd.run_all", "cmd.run_stdout", "cmd.run_stderr", "cmd.retcode", "cmd.shell")) {
            children.clear();
            Job running = call(fun, "sleep 60");
            ProcessHandle child = awaitChild();

            CallResult result = running.kill();

            assertThat(result.success()).as(fun).isFalse();
            assertThat(result.ret()).as(fun).isEqualTo("ERROR: interrupted; the command was killed");
            assertThat(child.isAlive()).as(fun).isFalse();
        }
    }

    @Test
    void interruptedScriptKillsItsProcess() throws Exception {
        Path script = Files.writeString(dir.resolve("wait.sh"), "#!/bin/sh\nsleep 60\n");
        Job running = call("cmd.script", script.toString());
        ProcessHandle shell = awaitChild();
        await().atMost(Duration.ofSeconds(10)).until(() -> shell.descendants().findAny().isPresent());
        List<ProcessHandle> sleeps = shell.descendants().toList();

        CallResult result = running.kill();

        assertThat(result.ret()).isEqualTo("ERROR: interrupted; the command was killed");
        await().atMost(PROMPTLY).until(() -> sleeps.stream().allMatch(InterruptedJobsTest::ended));
    }

    @Test
    void interruptedTestSleepEndsAtOnceWithAnError() {
        Job sleeping = call("test.sleep", 60);
        sleeping.awaitSleeping();

        assertThat(sleeping.kill()).isEqualTo(CallResult.failed("ERROR: interrupted; test.sleep was cut short", 1));
    }

    @Test
    void randSleepReactsToAnInterruptionItFindsPending() {
        // a random length may be 0 s: interrupting first makes the check deterministic
        Job sleeping = new Job(() -> {
            Thread.currentThread().interrupt();
            return registry.call("test.rand_sleep", List.of(Map.of("__kwarg__", true, "max", 60)), job);
        });

        assertThat(sleeping.kill()).isEqualTo(CallResult.failed("ERROR: interrupted; test.rand_sleep was cut short", 1));
    }

    @Test
    void interruptedCpuSamplingOfPsEndsAtOnce() {
        Job sampling = call("ps.cpu_percent", ModuleCalls.kwargs("interval", 60));
        sampling.awaitSleeping();

        CallResult result = sampling.kill();

        assertThat(result.success()).isFalse();
        assertThat(result.ret()).asString().startsWith("ERROR: ").contains("interrupted");
    }

    @Test
    void interruptedUdpProbeOfNetworkConnectEndsAtOnce() throws Exception {
        try (DatagramSocket silent = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            silent.setSoTimeout(10_000);
            Job probing = call("network.connect", "127.0.0.1", silent.getLocalPort(),
                    ModuleCalls.kwargs("proto", "udp", "timeout", 60));
            // the probe's datagram has arrived: the probe now waits for an answer that never comes
            silent.receive(new java.net.DatagramPacket(new byte[16], 16));

            CallResult result = probing.kill();

            assertThat(result.success()).isFalse();
            assertThat(result.ret()).asString().startsWith("ERROR: interrupted; network.connect to 127.0.0.1");
        }
    }

    @Test
    void systemToolsRunThroughTheSameKillableRunner() throws Exception {
        AtomicReference<RuntimeException> thrown = new AtomicReference<>();
        Thread tool = new Thread(() -> {
            try {
                SystemCommand.run(List.of("sleep", "60"), Duration.ofSeconds(120));
            } catch (RuntimeException e) {
                thrown.set(e);
            }
        });
        threads.add(tool);
        tool.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> ProcessHandle.current().children()
                .anyMatch(p -> p.info().command().map(c -> c.endsWith("sleep")).orElse(false)));
        List<ProcessHandle> sleeps = ProcessHandle.current().children()
                .filter(p -> p.info().command().map(c -> c.endsWith("sleep")).orElse(false)).toList();

        tool.interrupt();
        await().atMost(PROMPTLY).until(() -> !tool.isAlive());

        assertThat(thrown.get()).isInstanceOf(CommandExecutionException.class).hasMessageContaining("interrupted");
        await().atMost(PROMPTLY).until(() -> sleeps.stream().allMatch(InterruptedJobsTest::ended));
    }

    /**
     * Whether a process no longer runs. A killed grandchild is re-parented to PID 1, which in a container may
     * never reap it: a zombie has ended even though its pid is still listed.
     */
    private static boolean ended(ProcessHandle process) {
        if (!process.isAlive()) {
            return true;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (java.io.IOException e) {
            return true;
        }
    }
}
