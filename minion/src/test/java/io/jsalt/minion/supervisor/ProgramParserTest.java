package io.jsalt.minion.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.config.ConfigException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Supervisor's program keys, their defaults, expansions and the refusals, without processes. */
class ProgramParserTest {
    private static final Path FILE = Path.of("/etc/jsalt/supervisor.d/app.conf");
    private static final Path LOGS = Path.of("/var/cache/jsalt/minion/supervisor/log");
    private final ProgramParser parser = SupervisorHarness.parser(LOGS);

    private List<ProgramConfig> parse(String program, Map<String, ?> keys) {
        return parser.parse(program, keys, FILE, "[program:" + program + "]", FILE.getParent());
    }

    @Test
    void appliesSupervisorsDefaults() {
        ProgramConfig app = parse("app", Map.of("command", "/usr/bin/app --serve")).get(0);

        assertThat(app.name()).isEqualTo("app");
        assertThat(app.group()).isEqualTo("app");
        assertThat(app.autostart()).isTrue();
        assertThat(app.startsecs()).isEqualTo(1);
        assertThat(app.startretries()).isEqualTo(3);
        assertThat(app.autorestart()).isEqualTo(AutoRestart.UNEXPECTED);
        assertThat(app.exitcodes()).containsExactly(0);
        assertThat(app.stopsignal()).isEqualTo("TERM");
        assertThat(app.stopwaitsecs()).isEqualTo(10);
        assertThat(app.redirectStderr()).isFalse();
        assertThat(app.stdout()).isEqualTo(new ProgramConfig.LogSettings(LOGS.resolve("app-stdout.log"), 50L << 20, 10));
        assertThat(app.stderr().file()).isEqualTo(LOGS.resolve("app-stderr.log"));
        assertThat(app.backoff()).isEqualTo(Duration.ofSeconds(1));
        assertThat(app.directory()).isNull();
    }

    @Test
    void readsEveryKeyAsSupervisorWritesIt() {
        ProgramConfig app = parse("app", Map.ofEntries(
                Map.entry("command", "/usr/bin/app"), Map.entry("autostart", "false"), Map.entry("startsecs", "5"),
                Map.entry("startretries", "7"), Map.entry("autorestart", "true"), Map.entry("exitcodes", "0, 2"),
                Map.entry("stopsignal", "SIGINT"), Map.entry("stopwaitsecs", "30"), Map.entry("redirect_stderr", "true"),
                Map.entry("stdout_logfile", "/var/log/%(program_name)s.log"), Map.entry("stdout_logfile_maxbytes", "1KB"),
                Map.entry("stdout_logfile_backups", "0"), Map.entry("directory", "%(here)s/work"),
                Map.entry("environment", "A=\"1,2\",B='x y',HOME_COPY=%(ENV_HOME)s"))).get(0);

        assertThat(app.autostart()).isFalse();
        assertThat(app.startsecs()).isEqualTo(5);
        assertThat(app.startretries()).isEqualTo(7);
        assertThat(app.autorestart()).isEqualTo(AutoRestart.TRUE);
        assertThat(app.exitcodes()).isEqualTo(Set.of(0, 2));
        assertThat(app.stopsignal()).isEqualTo("INT");
        assertThat(app.stopwaitsecs()).isEqualTo(30);
        assertThat(app.stdout()).isEqualTo(new ProgramConfig.LogSettings(Path.of("/var/log/app.log"), 1024, 0));
        assertThat(app.stderr()).as("redirect_stderr: no stderr log").isEqualTo(ProgramConfig.LogSettings.NONE);
        assertThat(app.directory()).isEqualTo(Path.of("/etc/jsalt/supervisor.d/work"));
        assertThat(app.environment()).containsExactlyInAnyOrderEntriesOf(
                Map.of("A", "1,2", "B", "x y", "HOME_COPY", "/home/tester"));
    }

    @Test
    void numprocsExpandsProcessNum() {
        List<ProgramConfig> web = parse("web", Map.of("command", "/usr/bin/web --port 80%(process_num)02d",
                "numprocs", "3", "numprocs_start", "1", "process_name", "%(program_name)s-%(process_num)02d"));

        assertThat(web).extracting(ProgramConfig::name).containsExactly("web-01", "web-02", "web-03");
        assertThat(web).extracting(ProgramConfig::command).containsExactly("/usr/bin/web --port 8001",
                "/usr/bin/web --port 8002", "/usr/bin/web --port 8003");
        assertThat(web).extracting(ProgramConfig::displayName).containsExactly("web:web-01", "web:web-02", "web:web-03");
    }

    @Test
    void takesYamlScalarsAsWellAsText() {
        ProgramConfig app = parse("app", Map.of("command", "sleep 1", "startsecs", 0, "autostart", false,
                "autorestart", true, "environment", Map.of("A", 1))).get(0);

        assertThat(app.startsecs()).isZero();
        assertThat(app.autostart()).isFalse();
        assertThat(app.autorestart()).isEqualTo(AutoRestart.TRUE);
        assertThat(app.environment()).containsEntry("A", "1");
    }

    @Test
    void refusesBadValuesNamingTheFileAndKey() {
        assertRefused(Map.of(), "[program:app] command");
        assertRefused(Map.of("command", "sh -c 'echo"), "[program:app] command: expected a command line split as shlex does");
        assertRefused(Map.of("command", "x", "startsecs", "-1"), "[program:app] startsecs: expected an integer 0..86400");
        assertRefused(Map.of("command", "x", "autorestart", "sometimes"), "autorestart: expected false, unexpected or true");
        assertRefused(Map.of("command", "x", "exitcodes", "0,300"), "exitcodes");
        assertRefused(Map.of("command", "x", "stopsignal", "STOP"), "stopsignal");
        assertRefused(Map.of("command", "x", "numprocs", "2"), "process_name: expected %(process_num)");
        assertRefused(Map.of("command", "x", "stdout_logfile_maxbytes", "lots"), "stdout_logfile_maxbytes");
        assertRefused(Map.of("command", "x", "stdout_logfile", "relative.log"), "stdout_logfile: expected an absolute path");
        assertRefused(Map.of("command", "x %(nope)s"), "command: expected known %(name)s expansions");
        assertRefused(Map.of("command", "x", "environment", "A=\"open"), "environment");
    }

    @Test
    void refusesNamesThatWouldLeaveTheLogFolder() {
        assertThatThrownBy(() -> parse("../etc", Map.of("command", "x"))).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> parse("app", Map.of("command", "x", "process_name", "../../%(program_name)s")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("process_name");
        assertThatThrownBy(() -> parse("app", Map.of("command", "x", "process_name", "a/b")))
                .isInstanceOf(ConfigException.class);
    }

    @Test
    void readsUmaskAsOctalAndPriority() {
        ProgramConfig app = parse("app", Map.of("command", "x", "umask", "027", "priority", "5")).get(0);
        assertThat(app.umask()).isEqualTo(027);
        assertThat(app.priority()).isEqualTo(5);
        ProgramConfig plain = parse("app", Map.of("command", "x")).get(0);
        assertThat(plain.umask()).isNull();
        assertThat(plain.priority()).isEqualTo(999);
        assertRefused(Map.of("command", "x", "umask", "0999"), "umask: expected an octal number");
        assertRefused(Map.of("command", "x", "priority", "first"), "priority: expected an integer");
    }

    @Test
    void acceptsTheMinionsOwnUser() {
        List<ProgramConfig> own = parse("app", Map.of("command", "x", "user", System.getProperty("user.name")));
        assertThat(own).singleElement().extracting(ProgramConfig::user).isNull();
    }

    @Test
    void anotherUserIsForARootMinionOnlyAndMustExist() {
        Map<String, RunAs> users = Map.of("www-data", new RunAs("www-data", 33, 33));
        ProgramParser root = new ProgramParser(LOGS, Map.of(), () -> "host", "root", true,
                name -> java.util.Optional.ofNullable(users.get(name)));
        ProgramParser unprivileged = new ProgramParser(LOGS, Map.of(), () -> "host", "jsalt", false,
                name -> java.util.Optional.ofNullable(users.get(name)));

        assertThat(root.parse("app", Map.of("command", "x", "user", "www-data"), FILE, "[program:app]", FILE.getParent()))
                .singleElement().extracting(ProgramConfig::user).isEqualTo(new RunAs("www-data", 33, 33));
        assertThatThrownBy(() -> root.parse("app", Map.of("command", "x", "user", "nobody-here"), FILE, "[program:app]",
                FILE.getParent())).isInstanceOf(ConfigException.class).hasMessageContaining("user: expected a user of this host");
        assertThatThrownBy(() -> unprivileged.parse("app", Map.of("command", "x", "user", "www-data"), FILE, "[program:app]",
                FILE.getParent())).isInstanceOf(ConfigException.class)
                .hasMessageContaining("user: expected the minion's own user 'jsalt' (only a minion running as root");
    }

    @Test
    void aUserIsRunThroughSetprivWhichExecsTheCommand() {
        assertThat(new RunAs("www-data", 33, 34).wrap(List.of("/usr/bin/app", "--serve"))).containsExactly(
                "/usr/bin/setpriv", "--reuid=33", "--regid=34", "--init-groups", "--", "/usr/bin/app", "--serve");
        assertThat(RunAs.lookup("root")).contains(new RunAs("root", 0, 0));
        assertThat(RunAs.lookup("no-such-user-here")).isEmpty();
        assertThat(RunAs.lookup("bad:name")).isEmpty();
    }

    private void assertRefused(Map<String, ?> keys, String message) {
        assertThatThrownBy(() -> parse("app", keys)).isInstanceOf(ConfigException.class)
                .hasMessageContaining(FILE.toString()).hasMessageContaining(message);
    }
}
