package io.jsalt.states.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import io.jsalt.modules.api.JobControl;
import io.jsalt.modules.builtin.ServiceModule;
import io.jsalt.states.TestCalls;
import io.jsalt.states.exec.RegistryCaller;
import io.jsalt.states.files.FolderFiles;
import io.jsalt.states.render.FunctionCaller;
import io.jsalt.states.render.JinjaRenderer;
import io.jsalt.states.compile.ExecutionPlan;
import io.jsalt.states.compile.SlsCompiler;
import io.jsalt.states.render.RenderContext;
import io.jsalt.states.render.SlsRenderer;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateRunner;
import io.jsalt.states.run.StateFunctions;
import io.jsalt.states.run.StateResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service states through the real service execution module where systemd is not running (as in this
 * container): a real SysV init script in a temporary root's etc/init.d starts a real background process with a
 * pidfile, and enabling makes real /etc/rc?.d links under that root.
 */
class ServiceStatesTest {
    private static final String SERVICE = "jsalt-sleeper";
    @TempDir
    Path dir;
    private Path root;
    private Path state;
    private FunctionCaller salt;

    @BeforeEach
    void anInitScript() throws IOException {
        root = dir.resolve("root");
        state = Files.createDirectories(dir.resolve("state"));
        Files.createDirectories(root.resolve("etc/init.d"));
        Path script = Files.writeString(root.resolve("etc/init.d/" + SERVICE), """
                #!/bin/sh
                ### BEGIN INIT INFO
                # Provides:          jsalt-sleeper
                # Default-Start:     2 3 4 5
                # Default-Stop:      0 1 6
                # Short-Description: sleeps, for jsalt's tests
                ### END INIT INFO
                PIDFILE=STATE/sleeper.pid
                running() {
                    [ -f "$PIDFILE" ] || return 1
                    pid=$(cat "$PIDFILE")
                    [ -r "/proc/$pid/status" ] && ! grep -q '^State:.*Z' "/proc/$pid/status"
                }
                case "$1" in
                  start)
                    running && exit 0
                    echo start >> STATE/log
                    sleep 1000 </dev/null >/dev/null 2>&1 &
                    echo $! > "$PIDFILE" ;;
                  stop)
                    if running; then kill "$(cat "$PIDFILE")"; fi
                    echo stop >> STATE/log
                    rm -f "$PIDFILE" ;;
                  restart|force-reload)
                    "$0" stop && "$0" start ;;
                  reload)
                    running || exit 7
                    echo reload >> STATE/log ;;
                  status)
                    running || exit 3 ;;
                  *)
                    exit 2 ;;
                esac
                """.replace("STATE", state.toString()));
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        ModuleRegistry registry = ModuleRegistry.builder(SimpleModuleContext.builder().minionId("m1").build())
                .addModule(new ServiceModule(dir.resolve("run/systemd/system"), root, Path.of("/proc"))).build();
        salt = new RegistryCaller(registry, JobControl.NONE);
    }

    @AfterEach
    void stopTheDaemon() throws IOException {
        Path pidFile = state.resolve("sleeper.pid");
        if (Files.exists(pidFile)) {
            ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip())).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    private StateCall call(boolean test, String name, Object... args) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            map.put((String) args[i], args[i + 1]);
        }
        FolderFiles files = FolderFiles.base(dir);
        return new StateCall(name, map, test, salt, files, new JinjaRenderer(files), TestCalls.context(salt));
    }

    private boolean daemonRunning() throws IOException {
        Path pidFile = state.resolve("sleeper.pid");
        return Files.exists(pidFile) && ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()))
                .map(ProcessHandle::isAlive).orElse(false);
    }

    private String log() throws IOException {
        Path log = state.resolve("log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    private boolean startLinkExists() throws IOException {
        try (var links = Files.list(root.resolve("etc/rc2.d"))) {
            return links.anyMatch(p -> p.getFileName().toString().matches("S\\d\\d" + SERVICE));
        } catch (java.nio.file.NoSuchFileException e) {
            return false;
        }
    }

    @Test
    void runningStartsTheServiceOnceAndEnablesIt() throws IOException {
        StateResult test = ServiceStates.running(call(true, SERVICE, "enable", true));
        assertThat(test.result()).isNull();
        assertThat(test.comment()).isEqualTo("Service jsalt-sleeper is set to start");
        assertThat(daemonRunning()).isFalse();

        StateResult r = ServiceStates.running(call(false, SERVICE, "enable", true));
        assertThat(r.result()).as(r.comment()).isTrue();
        assertThat(r.comment()).isEqualTo("Service jsalt-sleeper has been enabled, and is running");
        assertThat(r.changes()).isEqualTo(Map.of(SERVICE, true));
        assertThat(daemonRunning()).isTrue();
        assertThat(startLinkExists()).isTrue();

        StateResult again = ServiceStates.running(call(false, SERVICE, "enable", true));
        assertThat(again.result()).isTrue();
        assertThat(again.changes()).isEmpty();
        assertThat(again.comment()).isEqualTo("The service jsalt-sleeper is already running");
        assertThat(log()).isEqualTo("start\n");
    }

    @Test
    void deadStopsTheServiceAndDisablesIt() throws IOException {
        ServiceStates.running(call(false, SERVICE, "enable", true));
        StateResult test = ServiceStates.dead(call(true, SERVICE));
        assertThat(test.result()).isNull();
        assertThat(test.comment()).isEqualTo("Service jsalt-sleeper is set to be killed");
        assertThat(daemonRunning()).isTrue();

        StateResult r = ServiceStates.dead(call(false, SERVICE));
        assertThat(r.result()).isTrue();
        assertThat(r.comment()).isEqualTo("Service jsalt-sleeper was killed");
        assertThat(r.changes()).isEqualTo(Map.of(SERVICE, false));
        assertThat(daemonRunning()).isFalse();
        assertThat(ServiceStates.dead(call(false, SERVICE)).comment()).isEqualTo("The service jsalt-sleeper is already dead");

        StateResult disable = ServiceStates.dead(call(false, SERVICE, "enable", false));
        assertThat(disable.comment()).isEqualTo("Service jsalt-sleeper has been disabled, and is in the desired state");
        assertThat(disable.changes()).isEqualTo(Map.of(SERVICE, true));
        assertThat(startLinkExists()).isFalse();
    }

    @Test
    void enabledAndDisabledChangeOnlyTheBootLinks() throws IOException {
        assertThat(ServiceStates.enabled(call(true, SERVICE)).comment()).isEqualTo("Service jsalt-sleeper set to be enabled");
        assertThat(startLinkExists()).isFalse();
        StateResult r = ServiceStates.enabled(call(false, SERVICE));
        assertThat(r.comment()).isEqualTo("Service jsalt-sleeper has been enabled, and is in the desired state");
        assertThat(r.changes()).isEqualTo(Map.of(SERVICE, true));
        assertThat(startLinkExists()).isTrue();
        assertThat(ServiceStates.enabled(call(false, SERVICE)).comment())
                .isEqualTo("Service jsalt-sleeper is already enabled, and is in the desired state");
        StateResult off = ServiceStates.disabled(call(false, SERVICE));
        assertThat(off.comment()).isEqualTo("Service jsalt-sleeper has been disabled, and is in the desired state");
        assertThat(startLinkExists()).isFalse();
        assertThat(daemonRunning()).isFalse();
    }

    @Test
    void anUnknownServiceIsNotAvailable() {
        StateResult r = ServiceStates.running(call(false, "jsalt-nosuch"));
        assertThat(r.result()).isFalse();
        assertThat(r.comment()).isEqualTo("The named service jsalt-nosuch is not available");
        assertThat(ServiceStates.running(call(true, "jsalt-nosuch")).comment()).isEqualTo(
                "Service jsalt-nosuch not present; if created in this state run, it would have been started");
        assertThat(ServiceStates.running(call(false, SERVICE, "enabled", true)).comment()).isEqualTo(
                "Service jsalt-sleeper uses non-existent option \"enabled\".  Perhaps \"enable\" option was intended?");
    }

    @Test
    void aWatchRestartsOrReloadsARunningServiceAndStartsAStoppedOne() throws IOException {
        StateFunctions functions = new StateFunctions();
        ServiceStates.register(functions);
        var watchRunning = functions.watcher("service", "running").orElseThrow();

        StateResult started = watchRunning.apply(call(false, SERVICE));
        assertThat(started.comment()).isEqualTo("Service started");
        assertThat(started.changes()).isEqualTo(Map.of(SERVICE, true));
        long first = Long.parseLong(Files.readString(state.resolve("sleeper.pid")).strip());

        assertThat(watchRunning.apply(call(true, SERVICE)).comment()).isEqualTo("Service is set to be restarted");
        StateResult restarted = watchRunning.apply(call(false, SERVICE));
        assertThat(restarted.result()).isTrue();
        assertThat(restarted.comment()).isEqualTo("Service restarted");
        assertThat(Long.parseLong(Files.readString(state.resolve("sleeper.pid")).strip())).isNotEqualTo(first);

        StateResult reloaded = watchRunning.apply(call(false, SERVICE, "reload", true));
        assertThat(reloaded.comment()).isEqualTo("Service reloaded");
        assertThat(log()).isEqualTo("stop\nstart\nstop\nstart\nreload\n");

        StateResult stopped = functions.watcher("service", "dead").orElseThrow().apply(call(false, SERVICE));
        assertThat(stopped.comment()).isEqualTo("Service stopped");
        assertThat(daemonRunning()).isFalse();
        assertThat(functions.watcher("service", "enabled").orElseThrow().apply(call(false, SERVICE)).comment())
                .isEqualTo("Unable to trigger watch for service.enabled");
    }

    @Test
    void inAnSlsAChangedWatchedFileRestartsTheRunningService() throws IOException {
        Path conf = dir.resolve("app.conf");
        Path sls = Files.createDirectories(dir.resolve("srv"));
        Files.writeString(sls.resolve("a.sls"), """
                conf:
                  file.managed:
                    - name: CONF
                    - contents: VALUE
                sleeper:
                  service.running:
                    - name: jsalt-sleeper
                    - watch:
                      - file: conf
                """.replace("CONF", conf.toString()));
        ServiceStates.running(call(false, SERVICE));
        long first = Long.parseLong(Files.readString(state.resolve("sleeper.pid")).strip());

        Map<String, Object> ret = apply(sls, "VALUE", "one");
        Map<?, ?> service = (Map<?, ?>) ret.get("service_|-sleeper_|-jsalt-sleeper_|-running");
        assertThat(service.get("comment")).isEqualTo("Service restarted");
        assertThat(service.get("changes")).isEqualTo(Map.of(SERVICE, true));
        assertThat(Long.parseLong(Files.readString(state.resolve("sleeper.pid")).strip())).isNotEqualTo(first);

        Map<?, ?> unchanged = (Map<?, ?>) apply(sls, "VALUE", "one").get("service_|-sleeper_|-jsalt-sleeper_|-running");
        assertThat(unchanged.get("comment")).isEqualTo("The service jsalt-sleeper is already running");
        assertThat(log()).isEqualTo("start\nstop\nstart\n");
    }

    private Map<String, Object> apply(Path srv, String placeholder, String value) throws IOException {
        Path sls = srv.resolve("a.sls");
        Files.writeString(sls, Files.readString(sls).replace(placeholder, value));
        FolderFiles files = FolderFiles.base(srv);
        SlsRenderer renderer = new SlsRenderer(files);
        RenderContext context = new RenderContext(Map.of(), Map.of(), Map.of("id", "m1"), "base", "a", "a.sls", salt);
        ExecutionPlan plan = new SlsCompiler(files, renderer).compile(List.of("a"), context);
        return new StateRunner(BuiltinStates.all(), salt, files, renderer.jinja()).run(plan, false, context);
    }
}
