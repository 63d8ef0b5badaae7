package io.jsalt.minion.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleContext;
import io.jsalt.modules.ModuleRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The supervisord/supervisor functions called as a job calls them, through a module registry. */
class SupervisorFunctionsTest {
    private static final ModuleContext CONTEXT = new ModuleContext() {
        @Override
        public String minionId() {
            return "m1";
        }

        @Override
        public Map<String, Object> grains() {
            return Map.of();
        }

        @Override
        public Map<String, Object> opts() {
            return Map.of();
        }

        @Override
        public Path cachedir() {
            return Path.of("/nonexistent");
        }
    };

    @TempDir
    Path dir;
    private SupervisorHarness harness;
    private ModuleRegistry registry;

    @BeforeEach
    void superviseOneSleeper() {
        harness = new SupervisorHarness(dir, Map.of("app", Map.of("command", "sleep 1000", "startsecs", "0"),
                "idle", Map.of("command", "sleep 1000", "startsecs", "0", "autostart", "false"))).start();
        harness.awaitState("app", ProcessState.RUNNING);
        registry = ModuleRegistry.builder(CONTEXT)
                .addModule(new SupervisordModule(harness.supervisor))
                .addModule(new SupervisorModule(harness.supervisor)).build();
    }

    @AfterEach
    void killEveryChild() {
        harness.close();
    }

    private Object call(String fun, Object... args) {
        CallResult result = registry.call(fun, List.of(args));
        assertThat(result.retcode()).as(fun + " " + result.ret()).isZero();
        return result.ret();
    }

    @Test
    void statusHasSaltsShapeUnderBothNames() {
        @SuppressWarnings("unchecked")
        Map<String, Map<String, String>> status = (Map<String, Map<String, String>>) call("supervisord.status");
        assertThat(status).containsOnlyKeys("app", "idle");
        assertThat(status.get("app").get("state")).isEqualTo("RUNNING");
        assertThat(status.get("app").get("reason")).startsWith("pid ");
        assertThat(status.get("idle")).isEqualTo(Map.of("state", "STOPPED", "reason", "Not started"));
        assertThat(call("supervisor.status", "idle")).isEqualTo(Map.of("idle", Map.of("state", "STOPPED", "reason", "Not started")));
        assertThat((String) call("supervisor.status_raw", "idle")).matches("idle {29}STOPPED {3}Not started");
    }

    @Test
    void startStopRestartAnswerAsSupervisorctl() {
        assertThat(call("supervisord.start", "idle")).isEqualTo("idle: started");
        assertThat(call("supervisord.start", "idle")).isEqualTo("idle: ERROR (already started)");
        long before = (Long) call("supervisor.pid", "idle");
        assertThat(call("supervisord.restart", "idle")).isEqualTo("idle: stopped\nidle: started");
        assertThat((Long) call("supervisor.pid", "idle")).isPositive().isNotEqualTo(before);
        assertThat(call("supervisord.stop", "idle")).isEqualTo("idle: stopped");
        assertThat(call("supervisor.pid", "idle")).isEqualTo(0L);
        CallResult nope = registry.call("supervisord.stop", List.of("nope"));
        assertThat(nope.ret()).isEqualTo("nope: ERROR (no such process)");
        assertThat(nope.retcode()).isEqualTo(1);
        assertThat(registry.call("supervisord.restart", List.of("nope")).retcode()).isEqualTo(1);
        assertThat(call("supervisord.status_bool", "app", Map.of("__kwarg__", true, "expected_state", "RUNNING"))).isEqualTo(true);
        assertThat(call("supervisord.status_bool", "idle", Map.of("__kwarg__", true, "expected_state", "RUNNING"))).isEqualTo(false);
    }

    @Test
    void aRestartWhoseProgramDoesNotComeBackFailsSoThatFailhardStopsARollingRestart() throws Exception {
        // the program's binary goes away: the restart's start is a spawn error, retcode 1
        java.nio.file.Path bin = java.nio.file.Files.copy(java.nio.file.Path.of("/bin/sleep"), dir.resolve("mysleep"));
        harness.close();
        harness = new SupervisorHarness(dir, Map.of("app", Map.of("command", bin + " 1000", "startsecs", "0",
                "startretries", "0"))).start();
        harness.awaitState("app", ProcessState.RUNNING);
        registry = ModuleRegistry.builder(CONTEXT).addModule(new SupervisorModule(harness.supervisor)).build();
        assertThat(registry.call("supervisor.restart", List.of("app")).retcode()).isZero();

        java.nio.file.Files.delete(bin);
        CallResult failed = registry.call("supervisor.restart", List.of("app"));
        assertThat(failed.ret()).isEqualTo("app: stopped\napp: ERROR (spawn error)");
        assertThat(failed.retcode()).isEqualTo(1);
        assertThat(failed.success()).isFalse();
    }

    @Test
    void unknownProcessIsAnErrorForStatusPidAndTail() {
        assertThat(registry.call("supervisor.status", List.of("nope")).retcode()).isEqualTo(1);
        assertThat(registry.call("supervisor.pid", List.of("nope")).retcode()).isEqualTo(1);
        assertThat(registry.call("supervisor.tail", List.of("nope")).retcode()).isEqualTo(1);
        assertThat(registry.call("supervisor.tail", List.of("app", Map.of("__kwarg__", true, "lines", -1))).retcode()).isEqualTo(1);
    }

    @Test
    void signalReachesTheProcessAndAnExitItCausesIsHandledAsAnyOther() {
        long pid = (Long) call("supervisor.pid", "app");
        assertThat(call("supervisor.signal", "SIGUSR1", "idle")).isEqualTo("idle: ERROR (not running)");
        assertThat(call("supervisor.signal", "kill", "app")).isEqualTo("app: signalled");

        // sleep dies of KILL, exit code 137, not one of exitcodes: autorestart=unexpected starts it again
        harness.awaitStatus("app", s -> s.restarts() >= 1);
        assertThat(harness.statesOf("app")).contains(ProcessState.EXITED);
        assertThat(harness.changes.stream().filter(c -> c.name().equals("app") && c.state() == ProcessState.EXITED)
                .findFirst().orElseThrow().exitstatus()).isEqualTo(137);
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThat(registry.call("supervisor.signal", List.of("STOP", "app")).retcode()).isEqualTo(1);
    }
}
