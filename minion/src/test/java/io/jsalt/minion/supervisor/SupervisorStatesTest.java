package io.jsalt.minion.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import io.jsalt.modules.api.JobControl;
import io.jsalt.states.builtin.BuiltinStates;
import io.jsalt.states.exec.RegistryCaller;
import io.jsalt.states.render.FunctionCaller;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateFunctions;
import io.jsalt.states.run.StateResult;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Salt's supervisord.running / dead states (and jsalt's supervisor.running / dead) over a real supervisor with
 * real processes, reached only through the supervisord execution module, as a minion's state run reaches it.
 */
class SupervisorStatesTest {
    @TempDir
    Path dir;
    private SupervisorHarness harness;
    private FunctionCaller salt;
    private final StateFunctions states = BuiltinStates.all();

    @AfterEach
    void killEveryChild() {
        if (harness != null) {
            harness.close();
        }
    }

    private void supervise(Map<String, Object> programs) {
        harness = new SupervisorHarness(dir, programs).start();
        ModuleRegistry registry = ModuleRegistry.builder(SimpleModuleContext.builder().minionId("m1").build())
                .addModule(new SupervisordModule(harness.supervisor)).addModule(new SupervisorModule(harness.supervisor))
                .build();
        salt = new RegistryCaller(registry, JobControl.NONE);
    }

    private StateResult apply(String fun, boolean test, String name, Object... args) {
        String[] parts = fun.split("\\.");
        return states.get(parts[0], parts[1]).orElseThrow().apply(call(test, name, args));
    }

    private StateResult watch(String fun, String name, Object... args) {
        String[] parts = fun.split("\\.");
        return states.watcher(parts[0], parts[1]).orElseThrow().apply(call(false, name, args));
    }

    private StateCall call(boolean test, String name, Object... args) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            map.put((String) args[i], args[i + 1]);
        }
        return new StateCall(name, map, test, salt, null, null, null);
    }

    private static Map<String, Object> sleeper(String autostart) {
        return Map.of("command", "sleep 1000", "startsecs", "0", "autostart", autostart);
    }

    @Test
    void runningStartsAStoppedProgramOnceWithSaltsCommentsAndChanges() {
        supervise(Map.of("app", sleeper("false")));

        StateResult test = apply("supervisord.running", true, "app");
        assertThat(test.result()).isNull();
        assertThat(test.comment()).isEqualTo("Service app will be started");
        assertThat(harness.status("app").state()).isEqualTo(ProcessState.STOPPED);

        StateResult r = apply("supervisord.running", false, "app");
        assertThat(r.result()).as(r.comment()).isTrue();
        assertThat(r.comment()).isEqualTo("Starting service: app");
        assertThat(r.changes()).isEqualTo(Map.of("app", "Starting service: app"));
        long pid = harness.status("app").pid();
        assertThat(harness.status("app").state()).isEqualTo(ProcessState.RUNNING);

        StateResult again = apply("supervisor.running", false, "app");
        assertThat(again.result()).isTrue();
        assertThat(again.comment()).isEqualTo("Not starting already running service: app");
        assertThat(again.changes()).isEmpty();
        assertThat(harness.status("app").pid()).isEqualTo(pid);

        StateResult restart = apply("supervisor.running", false, "app", "restart", true);
        assertThat(restart.comment()).isEqualTo("Restarting service: app");
        assertThat(restart.changes()).isEqualTo(Map.of("app", "Restarting service: app"));
        assertThat(harness.status("app").pid()).isNotEqualTo(pid).isPositive();
    }

    @Test
    void aWatchRestartsARunningProgram() {
        supervise(Map.of("app", sleeper("true")));
        long pid = harness.awaitState("app", ProcessState.RUNNING).pid();

        StateResult r = watch("supervisord.running", "app");

        assertThat(r.result()).as(r.comment()).isTrue();
        assertThat(r.changes()).isEqualTo(Map.of("app", "Restarting service: app"));
        assertThat(harness.status("app").state()).isEqualTo(ProcessState.RUNNING);
        assertThat(harness.status("app").pid()).isNotEqualTo(pid);
        assertThat(states.watcher("supervisor", "dead")).as("a dead program stays dead on a watch").isEmpty();
    }

    @Test
    void deadStopsARunningProgramAndLeavesAStoppedOneAlone() {
        supervise(Map.of("app", sleeper("true"), "idle", sleeper("false")));
        harness.awaitState("app", ProcessState.RUNNING);

        assertThat(apply("supervisord.dead", true, "app").comment()).isEqualTo("Service app is set to be stopped");
        StateResult r = apply("supervisord.dead", false, "app");
        assertThat(r.result()).isTrue();
        assertThat(r.changes()).isEqualTo(Map.of("app", "Stopping service: app"));
        assertThat(harness.status("app").state()).isEqualTo(ProcessState.STOPPED);

        StateResult idle = apply("supervisor.dead", false, "idle");
        assertThat(idle.result()).isTrue();
        assertThat(idle.comment()).isEqualTo("Service idle is not running");
        assertThat(idle.changes()).isEmpty();
        assertThat(apply("supervisor.dead", false, "nothing").comment()).isEqualTo("Service nothing doesn't exist");
    }

    @Test
    void aGroupIsStartedWholeByItsName() {
        supervise(Map.of("web", Map.of("command", "sleep 1000", "startsecs", "0", "autostart", "false", "numprocs", "2",
                "process_name", "%(program_name)s_%(process_num)02d")));

        StateResult test = apply("supervisord.running", true, "web:*");
        assertThat(test.comment()).isEqualTo("All services in group 'web:' will be started");

        StateResult r = apply("supervisord.running", false, "web:");
        assertThat(r.result()).as(r.comment()).isTrue();
        assertThat(r.comment()).isEqualTo("Starting group: web:");
        assertThat(harness.status("web:web_00").state()).isEqualTo(ProcessState.RUNNING);
        assertThat(harness.status("web:web_01").state()).isEqualTo(ProcessState.RUNNING);
    }

    @Test
    void programKeysDefineTheProgramAndAChangeRestartsIt() {
        supervise(Map.of());

        StateResult r = apply("supervisor.running", false, "pushed", "command", "sleep 1000", "startsecs", "0");
        assertThat(r.result()).as(r.comment()).isTrue();
        assertThat(r.changes()).containsOnlyKeys("pushed");
        long pid = harness.awaitState("pushed", ProcessState.RUNNING).pid();

        StateResult same = apply("supervisor.running", false, "pushed", "command", "sleep 1000", "startsecs", "0");
        assertThat(same.changes()).isEmpty();
        assertThat(harness.status("pushed").pid()).isEqualTo(pid);

        StateResult changed = apply("supervisor.running", false, "pushed", "command", "sleep 2000", "startsecs", "0");
        assertThat(changed.result()).as(changed.comment()).isTrue();
        assertThat(changed.comment()).isEqualTo("Not starting updated service: pushed");
        assertThat(harness.awaitState("pushed", ProcessState.RUNNING).pid()).isNotEqualTo(pid);
    }

    @Test
    void failuresAndArgumentsThatPickASupervisorctlAreReported() {
        supervise(Map.of("crash", Map.of("command", "false", "startsecs", "1", "startretries", "0", "autostart", "false",
                "backoff", "0.01")));

        StateResult crash = apply("supervisord.running", false, "crash");
        assertThat(crash.result()).isFalse();
        assertThat(crash.comment()).isEqualTo("crash: ERROR (abnormal termination)");
        assertThat(crash.changes()).isEmpty();

        assertThat(apply("supervisord.running", false, "crash", "conf_file", "/etc/supervisor/supervisord.conf").comment())
                .startsWith("conf_file: not accepted");
        assertThat(apply("supervisord.dead", false, "crash", "bin_env", "/opt/venv").result()).isFalse();
        assertThat(apply("supervisord.dead", false, "crash", "sig", "TERM").comment())
                .isEqualTo("supervisord.dead() got an unexpected keyword argument 'sig'");
        StateResult missing = apply("supervisord.running", false, "nothing");
        assertThat(missing.result()).isFalse();
        assertThat(missing.comment()).isEqualTo("nothing: ERROR (no such process)");
    }
}
