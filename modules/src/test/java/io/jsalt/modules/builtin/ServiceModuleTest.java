package io.jsalt.modules.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service module where systemd is not running: real init scripts in a temporary root's etc/init.d start and
 * stop a real background process, and enable/disable change the rc?.d links there.
 */
class ServiceModuleTest {

    private static final String SERVICE = "jsalt-sleeper";

    @TempDir
    Path dir;

    private Path root;
    private Path state;
    private Path noSystemd;
    private ModuleCalls calls;

    @BeforeEach
    void writeInitScripts() throws IOException {
        root = dir.resolve("root");
        state = Files.createDirectories(dir.resolve("state"));
        noSystemd = dir.resolve("run/systemd/system");
        Files.createDirectories(root.resolve("etc/init.d"));
        // a daemon as an init script would run it, its status zombie-aware (no init reaps orphans in a container)
        script(SERVICE, """
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
                    env > STATE/env
                    sleep 1000 </dev/null >/dev/null 2>&1 &
                    echo $! > "$PIDFILE" ;;
                  stop)
                    if running; then kill "$(cat "$PIDFILE")"; fi
                    rm -f "$PIDFILE" ;;
                  restart|force-reload)
                    "$0" stop && "$0" start ;;
                  reload)
                    running || exit 7
                    echo reloaded >> STATE/reloads ;;
                  status)
                    running || exit 3 ;;
                  *)
                    echo "Usage: $0 {start|stop|status|restart|reload|force-reload}" >&2
                    exit 2 ;;
                esac
                """.replace("STATE", state.toString()));
        script("jsalt-broken", """
                #!/bin/sh
                echo "cannot start: broken on purpose" >&2
                exit 1
                """);
        Files.writeString(root.resolve("etc/init.d/README"), "not a service\n");
        calls = ModuleCalls.of(new ServiceModule(noSystemd, root, Path.of("/proc")));
    }

    private void script(String name, String text) throws IOException {
        Path script = Files.writeString(root.resolve("etc/init.d").resolve(name), text);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @AfterEach
    void stopTheDaemon() throws IOException {
        Path pidFile = state.resolve("sleeper.pid");
        if (Files.exists(pidFile)) {
            ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip())).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    private long daemonPid() throws IOException {
        return Long.parseLong(Files.readString(state.resolve("sleeper.pid")).strip());
    }

    /** Alive and not a zombie waiting for a reaper. */
    private static boolean alive(long pid) {
        try {
            return !Files.readString(Path.of("/proc/" + pid + "/status")).matches("(?s).*State:\\s+Z.*");
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void startStatusRestartReloadAndStopRunTheInitScriptForReal() throws IOException {
        assertThat(calls.ret("service.status", SERVICE)).isEqualTo(false);

        assertThat(calls.ret("service.start", SERVICE)).isEqualTo(true);
        long first = daemonPid();
        assertThat(alive(first)).isTrue();
        assertThat(ProcessHandle.of(first).flatMap(p -> p.info().command())).hasValueSatisfying(
                command -> assertThat(command).endsWith("sleep"));
        assertThat(calls.ret("service.status", SERVICE)).isEqualTo(true);

        assertThat(calls.ret("service.reload", SERVICE)).isEqualTo(true);
        assertThat(state.resolve("reloads")).hasContent("reloaded");

        assertThat(calls.ret("service.restart", SERVICE)).isEqualTo(true);
        long second = daemonPid();
        assertThat(second).isNotEqualTo(first);
        await().atMost(Duration.ofSeconds(10)).until(() -> !alive(first));
        assertThat(alive(second)).isTrue();

        assertThat(calls.ret("service.stop", SERVICE)).isEqualTo(true);
        await().atMost(Duration.ofSeconds(10)).until(() -> !alive(second));
        assertThat(calls.ret("service.status", SERVICE)).isEqualTo(false);
        assertThat(calls.ret("service.reload", SERVICE)).as("reload of a stopped daemon fails").isEqualTo(false);
    }

    @Test
    void theScriptRunsAsServiceRunsItWithACleanEnvironment() throws IOException {
        calls.ret("service.start", SERVICE);

        List<String> env = Files.readAllLines(state.resolve("env"));
        assertThat(env).contains("PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
        assertThat(env).noneMatch(line -> line.startsWith("HOME=") || line.startsWith("JAVA_HOME=")
                || line.startsWith("MAVEN"));
    }

    @Test
    void aFailingScriptAnswersFalseAndAMissingOneIsAClearError() {
        assertThat(calls.ret("service.start", "jsalt-broken")).isEqualTo(false);
        assertThat(calls.ret("service.status", "jsalt-absent")).isEqualTo(false);
        assertThat(calls.call("service.start", "jsalt-absent").ret()).isEqualTo("ERROR: Service 'jsalt-absent' is not "
                + "available: no executable " + root.resolve("etc/init.d/jsalt-absent"));
    }

    @Test
    void theServicesAreTheInitScriptsAndAGlobStatusMapsEach() {
        calls.ret("service.start", SERVICE);

        assertThat(calls.ret("service.get_all")).isEqualTo(List.of("jsalt-broken", SERVICE));
        assertThat(calls.ret("service.available", SERVICE)).isEqualTo(true);
        assertThat(calls.ret("service.missing", "README")).isEqualTo(true);
        assertThat(calls.ret("service.status", "jsalt-*")).isEqualTo(Map.of("jsalt-broken", false, SERVICE, true));
        assertThat(calls.ret("service.status", "anything", "sleep 1000")).as("sig looks for a process").isEqualTo(true);
        assertThat(calls.ret("service.status", "anything", "no-such-process-[j]salt")).isEqualTo(false);
    }

    @Test
    void enableMakesStartLinksFromTheLsbHeaderAndDisableTurnsThemIntoStopLinks() throws IOException {
        assertThat(calls.ret("service.enabled", SERVICE)).isEqualTo(false);
        assertThat(calls.ret("service.disabled", SERVICE)).isEqualTo(true);

        assertThat(calls.ret("service.enable", SERVICE)).isEqualTo(true);

        for (String level : List.of("2", "3", "4", "5")) {
            Path link = root.resolve("etc/rc" + level + ".d/S01" + SERVICE);
            assertThat(Files.readSymbolicLink(link)).isEqualTo(Path.of("../init.d/" + SERVICE));
            assertThat(link).isExecutable(); // resolves to the script
        }
        for (String level : List.of("0", "1", "6")) {
            assertThat(Files.isSymbolicLink(root.resolve("etc/rc" + level + ".d/K01" + SERVICE))).isTrue();
        }
        assertThat(calls.ret("service.enabled", SERVICE)).isEqualTo(true);
        assertThat(calls.ret("service.get_enabled")).isEqualTo(List.of(SERVICE));
        assertThat(calls.ret("service.get_disabled")).isEqualTo(List.of("jsalt-broken"));

        assertThat(calls.ret("service.disable", SERVICE)).isEqualTo(true);

        assertThat(root.resolve("etc/rc2.d/S01" + SERVICE)).doesNotExist();
        assertThat(Files.isSymbolicLink(root.resolve("etc/rc2.d/K01" + SERVICE))).isTrue();
        assertThat(calls.ret("service.enabled", SERVICE)).isEqualTo(false);
        assertThat(calls.ret("service.disabled", SERVICE)).isEqualTo(true);

        assertThat(calls.ret("service.enable", SERVICE)).as("enabled again from the existing links").isEqualTo(true);
        assertThat(Files.isSymbolicLink(root.resolve("etc/rc2.d/S01" + SERVICE))).isTrue();
    }

    @Test
    void enablingAScriptWithoutAnLsbHeaderIsAClearError() {
        assertThat(calls.call("service.enable", "jsalt-broken").ret())
                .isEqualTo("ERROR: jsalt-broken: the script's Default-Start names no runlevels");
        assertThat(calls.call("service.disable", "jsalt-broken").ret())
                .isEqualTo("ERROR: jsalt-broken: the script's Default-Start names no runlevels");
    }

    @Test
    void namesThatCouldLeaveInitDOrReadAsOptionsAreRefused() {
        for (String name : List.of("../../bin/sh", "-x", ".hidden", "a/b", "")) {
            CallResult result = calls.call("service.start", name);
            assertThat(result).as(name).isEqualTo(CallResult.failed("ERROR: Invalid service name '" + name + "'", 1));
        }
        assertThat(calls.call("service.status", "../jsalt-sleeper").retcode()).isEqualTo(1);
    }

    @Test
    void theProviderIsChosenOnEveryCallFromWhetherSystemdRuns() throws IOException {
        Files.createDirectories(noSystemd);

        // with systemd's mark, systemctl is asked: it starts nothing of the SysV root (and fails where systemd is absent)
        calls.call("service.start", SERVICE);
        assertThat(state.resolve("sleeper.pid")).doesNotExist();
        CallResult invalid = calls.call("service.start", "--root=/");
        assertThat(invalid).isEqualTo(CallResult.failed("ERROR: Invalid service name '--root=/'", 1));

        Files.delete(noSystemd);
        assertThat(calls.ret("service.start", SERVICE)).isEqualTo(true);
        assertThat(state.resolve("sleeper.pid")).exists();
    }

    @Test
    void theRealHostIsServedByTheProviderItsInitCalls() {
        ModuleRegistry registry = ModuleRegistry.builder(SimpleModuleContext.builder().minionId("s").build())
                .addModule(new ServiceModule()).build();

        CallResult all = registry.call("service.get_all", List.of());
        CallResult bogus = registry.call("service.available", List.of("no-such-unit-jsalt"));

        assertThat(all.success()).as(String.valueOf(all.ret())).isTrue();
        assertThat((List<?>) all.ret()).isNotEmpty(); // /etc/init.d or systemd's units: a Debian host has some
        assertThat(bogus).isEqualTo(CallResult.ok(false));
    }
}
