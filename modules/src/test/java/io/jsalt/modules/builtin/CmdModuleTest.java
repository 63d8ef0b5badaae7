package io.jsalt.modules.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CmdModuleTest {

    private static final String TRUNCATION_NOTE = "\n[output truncated at 1048576 bytes]";

    private final ModuleRegistry registry =
            ModuleRegistry.builtIn(SimpleModuleContext.builder().minionId("cmd-test").build());

    private CallResult call(String fun, Object... args) {
        return registry.call(fun, Arrays.asList(args));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        return (Map<String, Object>) value;
    }

    private static Map<String, Object> kwargs(Object... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("__kwarg__", true);
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], pairs[i + 1]);
        }
        return map;
    }

    @Test
    void runReturnsOutputWithoutTheTrailingNewline() {
        assertThat(call("cmd.run", "echo hello world")).isEqualTo(CallResult.ok("hello world"));
    }

    @Test
    void runSplitsArgumentsWithShellQuotingRules() {
        CallResult result = call("cmd.run", "printf '%s|' 'a b' \"c \\\"d\\\"\" e\\ f '' g");

        assertThat(result.ret()).isEqualTo("a b|c \"d\"|e f||g|");
    }

    @Test
    void runGoesThroughTheShellByDefaultAsSaltRunsCallsFromItsCommandLine() {
        assertThat(call("cmd.run", "echo $0 | wc -l").ret()).isEqualTo("1");
        assertThat(call("cmd.run", "X=ab; echo ${#X}$X").ret()).isEqualTo("2ab");
    }

    @Test
    void pythonShellFalsePassesShellSyntaxLiterally() {
        assertThat(call("cmd.run", "echo a | wc -c $HOME", kwargs("python_shell", false)).ret()).isEqualTo("a | wc -c $HOME");
    }

    @Test
    void cmdSafeTrueTakesTheShellAwayUnlessTheCallAsksForIt() {
        ModuleRegistry safe = ModuleRegistry.builtIn(SimpleModuleContext.builder().minionId("m")
                .opts(Map.of("cmd_safe", true)).build());

        assertThat(safe.call("cmd.run", List.of("echo a | wc -c $HOME")).ret()).isEqualTo("a | wc -c $HOME");
        assertThat(safe.call("cmd.run_stdout", List.of("echo a b | wc -w")).ret()).isEqualTo("a b | wc -w");
        assertThat(safe.call("cmd.run", List.of("echo a b | wc -w", kwargs("python_shell", true))).ret()).isEqualTo("2");
        assertThat(safe.call("cmd.shell", List.of("echo a b | wc -w")).ret()).isEqualTo("2");
    }

    @Test
    void runThroughPythonShellSupportsPipesAndVariables() {
        assertThat(call("cmd.run", "echo a b c | wc -w", kwargs("python_shell", true)).ret()).isEqualTo("3");
        assertThat(call("cmd.shell", "X=4; echo $((X * 2))").ret()).isEqualTo("8");
    }

    @Test
    void cmdSafeFalseKeepsTheShellTheDefault() {
        ModuleRegistry unsafe = ModuleRegistry.builtIn(SimpleModuleContext.builder().minionId("m")
                .opts(Map.of("cmd_safe", false)).build());

        assertThat(unsafe.call("cmd.run", List.of("echo a b | wc -w")).ret()).isEqualTo("2");
    }

    @Test
    void runMergesStderrIntoTheOutput() {
        CallResult result = call("cmd.run", "echo out; echo err >&2", kwargs("python_shell", true));

        assertThat(result.ret()).isEqualTo("out\nerr");
    }

    @Test
    void nonzeroExitCodeBecomesTheRetcode() {
        CallResult result = call("cmd.run", "sh -c 'echo failing; exit 3'");

        assertThat(result).isEqualTo(new CallResult("failing", 3, false));
    }

    @Test
    void runAllSeparatesTheStreamsAndReportsThePid() {
        CallResult result = call("cmd.run_all", "echo out; echo err >&2; exit 2", kwargs("python_shell", true));

        Map<String, Object> ret = asMap(result.ret());
        assertThat(ret.keySet()).containsExactly("pid", "retcode", "stdout", "stderr");
        assertThat(ret.get("stdout")).isEqualTo("out");
        assertThat(ret.get("stderr")).isEqualTo("err");
        assertThat(ret.get("retcode")).isEqualTo(2);
        assertThat((Long) ret.get("pid")).isPositive();
        assertThat(result.retcode()).isEqualTo(2);
        assertThat(result.success()).isFalse();
    }

    @Test
    void runStdoutAndRunStderrReturnOneStreamEach() {
        String script = "echo out; echo err >&2";

        assertThat(call("cmd.run_stdout", script, kwargs("python_shell", true))).isEqualTo(CallResult.ok("out"));
        assertThat(call("cmd.run_stderr", script, kwargs("python_shell", true))).isEqualTo(CallResult.ok("err"));
    }

    @Test
    void retcodeReturnsTheExitCodeAndSetsIt() {
        assertThat(call("cmd.retcode", "sh -c 'exit 7'")).isEqualTo(new CallResult(7, 7, false));
        assertThat(call("cmd.retcode", "true")).isEqualTo(new CallResult(0, 0, true));
    }

    @Test
    void missingProgramGivesRetcode127AndAClearMessage() {
        Map<String, Object> noShell = kwargs("python_shell", false);
        CallResult run = call("cmd.run", "no-such-program-jsalt --flag", noShell);
        CallResult retcode = call("cmd.retcode", "no-such-program-jsalt", noShell);
        CallResult runAll = call("cmd.run_all", "no-such-program-jsalt", noShell);
        CallResult throughTheShell = call("cmd.run", "no-such-program-jsalt --flag");

        assertThat(run.retcode()).isEqualTo(127);
        assertThat(run.ret()).isEqualTo("ERROR: Unable to run command 'no-such-program-jsalt': No such file or directory");
        assertThat(retcode).isEqualTo(new CallResult(127, 127, false));
        assertThat(asMap(runAll.ret()).get("stderr")).asString().contains("Unable to run command");
        assertThat(runAll.retcode()).isEqualTo(127);
        assertThat(throughTheShell.retcode()).isEqualTo(127);
        assertThat(throughTheShell.ret()).asString().contains("no-such-program-jsalt").contains("not found");
    }

    @Test
    void timeoutKillsTheProcessQuickly() {
        long started = System.nanoTime();

        CallResult result = call("cmd.run_all", "sleep 30", kwargs("timeout", 1L));

        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
        assertThat(elapsed).isLessThan(Duration.ofSeconds(10));
        assertThat(result.retcode()).isEqualTo(1);
        assertThat(result.success()).isFalse();
        Map<String, Object> ret = asMap(result.ret());
        assertThat(ret.get("stderr")).isEqualTo("Timed out after 1 s");
        long pid = (Long) ret.get("pid");
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }

    @Test
    void timeoutKillsTheDescendantsToo() {
        // the shell prints its background child's pid, then waits for it
        CallResult result = call("cmd.run", "sleep 30 & echo $!; wait", kwargs("python_shell", true, "timeout", 0.5));

        assertThat(result.retcode()).isEqualTo(1);
        String[] lines = ((String) result.ret()).split("\n");
        assertThat(lines[lines.length - 1]).isEqualTo("Timed out after 0.5 s");
        long child = Long.parseLong(lines[0].strip());
        await().atMost(Duration.ofSeconds(5)).until(() -> !isRunning(child));
    }

    /** Alive and not a zombie waiting for a reaper: a killed orphan may stay in the table until reaped. */
    private static boolean isRunning(long pid) throws Exception {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        if (!Files.exists(stat)) {
            return false;
        }
        String text;
        try {
            text = Files.readString(stat);
        } catch (java.io.IOException gone) {
            return false;
        }
        char state = text.charAt(text.lastIndexOf(')') + 2);
        return state != 'Z' && state != 'X';
    }

    @Test
    void eachStreamIsCappedAtOneMebibyteAndTheProcessStillFinishes() {
        String big = "head -c 3000000 /dev/zero | tr '\\0' a";

        CallResult run = call("cmd.run", big, kwargs("python_shell", true));
        CallResult runAll = call("cmd.run_all", big + "; " + big + " >&2", kwargs("python_shell", true));

        assertThat(run.retcode()).isZero();
        String output = (String) run.ret();
        assertThat(output).endsWith(TRUNCATION_NOTE).hasSize(1048576 + TRUNCATION_NOTE.length());
        assertThat(output.substring(0, 1048576)).matches("a+");
        Map<String, Object> ret = asMap(runAll.ret());
        assertThat((String) ret.get("stdout")).endsWith(TRUNCATION_NOTE).hasSize(1048576 + TRUNCATION_NOTE.length());
        assertThat((String) ret.get("stderr")).endsWith(TRUNCATION_NOTE).hasSize(1048576 + TRUNCATION_NOTE.length());
    }

    @Test
    void stdinIsFedToTheProcess() {
        assertThat(call("cmd.run", "cat", kwargs("stdin", "hello\nworld\n")).ret()).isEqualTo("hello\nworld");
        String large = "x".repeat(300_000);
        assertThat(call("cmd.run", "wc -c", kwargs("stdin", large)).ret()).isEqualTo("300000");
    }

    @Test
    void cwdSetsTheWorkingDirectory(@TempDir Path dir) throws Exception {
        Path real = dir.toRealPath();

        assertThat(call("cmd.run", "pwd", kwargs("cwd", real.toString())).ret()).isEqualTo(real.toString());
        assertThat(call("cmd.run", "pwd", "cwd=" + real).ret()).isEqualTo(real.toString());
    }

    @Test
    void defaultWorkingDirectoryIsTheHomeDirectoryLikeSalt() throws Exception {
        Path home = Path.of(System.getProperty("user.home")).toRealPath();

        assertThat(Path.of((String) call("cmd.run", "pwd").ret()).toRealPath()).isEqualTo(home);
    }

    @Test
    void badCwdIsAnError() {
        CallResult result = call("cmd.run", "pwd", kwargs("cwd", "/no/such/dir"));

        assertThat(result).isEqualTo(CallResult.failed(
                "ERROR: Specified cwd '/no/such/dir' either not absolute or does not exist", 1));
    }

    @Test
    void envAddsVariablesAsADictOrAListOfDicts() {
        assertThat(call("cmd.run", "printenv JSALT_A", kwargs("env", Map.of("JSALT_A", "one"))).ret())
                .isEqualTo("one");
        assertThat(call("cmd.run", "printenv JSALT_B", kwargs("env", List.of(Map.of("JSALT_B", 2L)))).ret())
                .isEqualTo("2");
        assertThat(call("cmd.run", "printenv JSALT_A", kwargs("env", "JSALT_A=one")).retcode()).isEqualTo(1);
    }

    @Test
    void rstripFalseKeepsTheTrailingNewline() {
        assertThat(call("cmd.run", "echo hi", kwargs("rstrip", false)).ret()).isEqualTo("hi\n");
    }

    @Test
    void unbalancedQuotesAreReportedNotRun() {
        CallResult result = call("cmd.run", "echo 'unterminated", kwargs("python_shell", false));

        assertThat(result).isEqualTo(CallResult.failed(
                "ERROR: Unable to parse command 'echo 'unterminated': No closing quotation", 1));
    }

    @Test
    void nonPositiveTimeoutIsRefused() {
        assertThat(call("cmd.run", "true", kwargs("timeout", 0L)).retcode()).isEqualTo(1);
        assertThat(call("cmd.run", "true", kwargs("timeout", "soon")).ret()).asString()
                .startsWith("ERROR: Passed invalid arguments to cmd.run: argument 'timeout' expects a number");
    }

    @Test
    void unknownKeywordsLikeUseVtAreRefusedRatherThanIgnored() {
        CallResult result = call("cmd.run", "id", kwargs("use_vt", true));

        assertThat(result.retcode()).isEqualTo(1);
        assertThat(result.ret()).asString().contains("The following keyword arguments are not valid: use_vt=true");
    }

    @Test
    void whichAndHasExecLookInPath() {
        assertThat(call("cmd.which", "sh").ret()).asString().endsWith("/sh");
        assertThat(call("cmd.which", "no-such-program-jsalt")).isEqualTo(CallResult.ok(null));
        assertThat(call("cmd.has_exec", "sh")).isEqualTo(CallResult.ok(true));
        assertThat(call("cmd.has_exec", "no-such-program-jsalt")).isEqualTo(CallResult.ok(false));
    }
}
