package io.jsalt.modules.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.accounts.AccountDatabase;
import io.jsalt.modules.builtin.cmd.CommandLog;
import io.jsalt.modules.builtin.cmd.RunAs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** cmd.*'s runas (as root through runuser; these tests run as root) and output_loglevel. */
class CmdRunasAndLoggingTest {

    private final ModuleRegistry registry =
            ModuleRegistry.builtIn(SimpleModuleContext.builder().minionId("runas-test").build());
    private final Logger commandLog = (Logger) LoggerFactory.getLogger(CommandLog.class);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private Level previousLevel;

    @TempDir
    Path dir;

    @BeforeEach
    void captureCommandLog() {
        previousLevel = commandLog.getLevel();
        commandLog.setLevel(Level.TRACE);
        logged.start();
        commandLog.addAppender(logged);
    }

    @AfterEach
    void releaseCommandLog() {
        commandLog.detachAppender(logged);
        logged.stop();
        commandLog.setLevel(previousLevel);
    }

    private CallResult call(String fun, Object... args) {
        return registry.call(fun, Arrays.asList(args));
    }

    private List<String> messages(Level level) {
        return logged.list.stream().filter(e -> e.getLevel() == level).map(ILoggingEvent::getFormattedMessage).toList();
    }

    @Test
    void runasRunsTheCommandAsThatUser() {
        assertThat(call("cmd.run", "id -un", ModuleCalls.kwargs("runas", "nobody")).ret()).isEqualTo("nobody");
        Map<String, Object> all = ModuleCalls.asMap(call("cmd.run_all", "id -u", ModuleCalls.kwargs("runas", "nobody"))
                .ret());
        assertThat(all.get("stdout")).isEqualTo("65534");
        assertThat(call("cmd.shell", "id -un; echo $0", ModuleCalls.kwargs("runas", "nobody")).ret())
                .isEqualTo("nobody\n/bin/sh");
    }

    @Test
    void runasIsTheFourthPositionalArgumentAsInSalt() {
        assertThat(call("cmd.run", "id -un", null, null, "nobody").ret()).isEqualTo("nobody");
    }

    @Test
    void runasStartsInTheUsersHomeOrTheRootWhenItHasNone() {
        // nobody's home is /nonexistent
        assertThat(call("cmd.run", "pwd", ModuleCalls.kwargs("runas", "nobody")).ret()).isEqualTo("/");
        assertThat(call("cmd.run", "pwd", ModuleCalls.kwargs("runas", "nobody", "cwd", dir.toString())).ret())
                .isEqualTo(dir.toString());
    }

    @Test
    void runasOfAnUnknownUserIsAnError() {
        CallResult result = call("cmd.run", "true", ModuleCalls.kwargs("runas", "no-such-user-jsalt"));

        assertThat(result).isEqualTo(CallResult.failed("ERROR: User 'no-such-user-jsalt' is not available", 1));
    }

    @Test
    void runasAsTheMinionsOwnUserRunsDirectly() {
        assertThat(call("cmd.run", "id -un", ModuleCalls.kwargs("runas", "root")).ret()).isEqualTo("root");
    }

    @Test
    void aMinionThatIsNotRootRefusesRunasOfAnotherUser() throws IOException {
        Path passwd = Files.writeString(dir.resolve("passwd"),
                "alice:x:1000:1000::/home/alice:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n");
        Path group = Files.writeString(dir.resolve("group"), "alice:x:1000:\n");
        RunAs asAlice = new RunAs(new AccountDatabase(passwd, group), 1000, "alice");

        assertThat(asAlice.wrap(List.of("id"), "alice")).containsExactly("id");
        assertThat(asAlice.wrap(List.of("id"), null)).containsExactly("id");
        assertThatThrownBy(() -> asAlice.wrap(List.of("id"), "nobody"))
                .isInstanceOf(CommandExecutionException.class)
                .hasMessage("runas=nobody needs root: this minion runs as 'alice' and can only run commands as itself");
    }

    @Test
    void rootWrapsTheCommandInRunuser() throws IOException {
        Path passwd = Files.writeString(dir.resolve("passwd"), "root:x:0:0::/root:/bin/sh\nbob:x:1001:1001::/:/bin/sh\n");
        RunAs asRoot = new RunAs(new AccountDatabase(passwd, Files.writeString(dir.resolve("group"), "")), 0, "root");

        assertThat(asRoot.wrap(List.of("id", "-u"), "bob")).endsWith("-u", "bob", "--", "id", "-u");
        assertThat(asRoot.wrap(List.of("id", "-u"), "bob").get(0)).endsWith("runuser");
    }

    @Test
    void rootRunsRunuserInACleanEnvironmentAndHandsTheVariablesToTheUsersCommandThroughEnv() throws IOException {
        Path passwd = Files.writeString(dir.resolve("passwd"), "root:x:0:0::/root:/bin/sh\nbob:x:1001:1001::/:/bin/sh\n");
        RunAs asRoot = new RunAs(new AccountDatabase(passwd, Files.writeString(dir.resolve("group"), "")), 0, "root");
        Map<String, String> env = new java.util.LinkedHashMap<>();
        env.put("GREETING", "hi there");
        env.put("DROPPED", null);

        RunAs.Launch launch = asRoot.launch(List.of("id", "-u"), env, "bob");

        assertThat(launch.argv()).endsWith("-u", "bob", "--", "/usr/bin/env", "-u", "DROPPED", "GREETING=hi there",
                "id", "-u");
        assertThat(launch.inheritEnv()).isFalse();
        assertThat(launch.env()).containsOnlyKeys("PATH");
        assertThat(asRoot.launch(List.of("id"), env, null)).isEqualTo(new RunAs.Launch(List.of("id"), env, true));
    }

    @Test
    void aRunasCommandSeesItsEnvButNoneOfTheMinionsOwnVariables() {
        List<String> minionOnly = System.getenv().keySet().stream()
                .filter(name -> !List.of("PATH", "HOME", "SHELL", "USER", "LOGNAME", "MAIL", "LANG", "TERM")
                        .contains(name))
                .toList();
        assertThat(minionOnly).as("variables of the test JVM that runuser does not set").isNotEmpty();

        // no shell: a shell would add variables of its own (PWD, SHLVL)
        String out = (String) call("cmd.run", "env", ModuleCalls.kwargs("runas", "nobody", "env",
                Map.of("GREETING", "hi"), "python_shell", false)).ret();

        List<String> names = out.lines().map(line -> line.substring(0, Math.max(0, line.indexOf('=')))).toList();
        assertThat(names).contains("GREETING").doesNotContainAnyElementsOf(minionOnly);
    }

    @Test
    void loaderVariablesAreRefusedWithRunas() {
        for (String name : List.of("LD_PRELOAD", "LD_LIBRARY_PATH", "GCONV_PATH", "GLIBC_TUNABLES")) {
            CallResult result = call("cmd.run", "true", ModuleCalls.kwargs("runas", "nobody", "env",
                    Map.of(name, "/tmp/x")));

            assertThat(result).isEqualTo(CallResult.failed("ERROR: env may not set " + name + " with runas=nobody: "
                    + "it steers the dynamic loader", 1));
        }
        assertThat(call("cmd.run", "printenv LD_LIBRARY_PATH", ModuleCalls.kwargs("env",
                Map.of("LD_LIBRARY_PATH", "/opt/lib"))).ret()).isEqualTo("/opt/lib");
    }

    @Test
    void outputLoglevelLogsTheCommandAndItsOutputAtThatLevel() {
        call("cmd.run", "echo hello", ModuleCalls.kwargs("output_loglevel", "info"));

        assertThat(messages(Level.INFO)).anySatisfy(m -> assertThat(m).startsWith("Executing command [/bin/sh, -c, echo hello]"))
                .contains("stdout: hello");
        assertThat(messages(Level.DEBUG)).isEmpty();
    }

    @Test
    void theDefaultLevelIsDebugAsInSalt() {
        call("cmd.run_all", "echo hi");

        assertThat(messages(Level.DEBUG)).contains("stdout: hi");
        assertThat(messages(Level.INFO)).isEmpty();
    }

    @Test
    void quietLogsNothingEvenForAFailedCommand() {
        call("cmd.run", "echo secret; exit 3", ModuleCalls.kwargs("python_shell", true, "output_loglevel", "quiet"));

        assertThat(logged.list).isEmpty();
    }

    @Test
    void aFailedCommandIsLoggedAsAnErrorUnlessIgnoreRetcode() {
        call("cmd.run", "sh -c 'echo oops; exit 3'");

        assertThat(messages(Level.ERROR)).anySatisfy(m -> assertThat(m).endsWith("failed with return code: 3"))
                .contains("stdout: oops");

        logged.list.clear();
        call("cmd.run", "sh -c 'echo oops; exit 3'", ModuleCalls.kwargs("ignore_retcode", true));

        assertThat(messages(Level.ERROR)).isEmpty();
        assertThat(messages(Level.DEBUG)).contains("stdout: oops", "retcode: 3");
    }

    @Test
    void saltsLevelNamesMapToTheNearestLevel() {
        call("cmd.run", "echo a", ModuleCalls.kwargs("output_loglevel", "garbage"));
        call("cmd.run", "echo b", ModuleCalls.kwargs("output_loglevel", "WARNING"));

        assertThat(messages(Level.TRACE)).contains("stdout: a");
        assertThat(messages(Level.WARN)).contains("stdout: b");
    }

    @Test
    void anUnknownLevelIsRefused() {
        CallResult result = call("cmd.run", "echo a", ModuleCalls.kwargs("output_loglevel", "loud"));

        assertThat(result.success()).isFalse();
        assertThat(result.ret()).asString().startsWith("ERROR: Invalid output_loglevel 'loud': expected one of quiet");
    }
}
