package io.jsalt.modules.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestModuleTest {

    private final ModuleRegistry registry = ModuleRegistry.builtIn(SimpleModuleContext.builder()
            .minionId("t").opts(Map.of("id", "t", "master", "salt")).build());

    private CallResult call(String fun, Object... args) {
        return registry.call(fun, Arrays.asList(args));
    }

    @Test
    void pingReturnsTrue() {
        assertThat(call("test.ping")).isEqualTo(CallResult.ok(true));
    }

    @Test
    void echoReturnsItsArgumentUnchanged() {
        assertThat(call("test.echo", "hello")).isEqualTo(CallResult.ok("hello"));
        assertThat(call("test.echo", 5L)).isEqualTo(CallResult.ok(5L));
        assertThat(call("test.echo", Map.of("__kwarg__", true, "text", "kw"))).isEqualTo(CallResult.ok("kw"));
    }

    @Test
    void echoWithoutTextIsABadCallNamingTheSignature() {
        CallResult result = call("test.echo");

        assertThat(result.retcode()).isEqualTo(1);
        assertThat(result.ret()).isEqualTo("ERROR: Passed invalid arguments to test.echo: missing required argument "
                + "'text'; signature: test.echo(text)");
    }

    @Test
    void sleepWaitsAtLeastTheGivenFractionOfASecond() {
        long started = System.nanoTime();

        assertThat(call("test.sleep", 0.2d)).isEqualTo(CallResult.ok(true));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        assertThat(call("test.sleep", "0")).isEqualTo(CallResult.ok(true));
        assertThat(call("test.sleep", -1L).ret()).isEqualTo("ERROR: length must not be negative, got -1.0");
    }

    @Test
    void versionIsTheBuildVersion() {
        assertThat((String) call("test.version").ret()).matches("\\d+\\.\\d+\\.\\d+.*");
    }

    @Test
    void argReturnsArgsAndKwargsLikeSalt() {
        // the arg list of salt '*' test.arg 1 two=2, as captured from Salt 3006.8 (run1 frame 019)
        Map<String, Object> kwarg = new LinkedHashMap<>();
        kwarg.put("__kwarg__", true);
        kwarg.put("two", 2L);

        CallResult result = call("test.arg", 1L, kwarg);

        assertThat(result).isEqualTo(CallResult.ok(Map.of("args", List.of(1L), "kwargs", Map.of("two", 2L))));
    }

    @Test
    void kwargReturnsTheKeywordArguments() {
        assertThat(call("test.kwarg", Map.of("__kwarg__", true, "a", 1L), "b=x"))
                .isEqualTo(CallResult.ok(Map.of("a", 1L, "b", "x")));
        assertThat(call("test.kwarg", "positional").retcode()).isEqualTo(1);
    }

    @Test
    void retcodeSetsTheJobRetcode() {
        assertThat(call("test.retcode", 3L)).isEqualTo(new CallResult(true, 3, false));
        assertThat(call("test.retcode", 0L)).isEqualTo(new CallResult(true, 0, true));
        assertThat(call("test.retcode")).isEqualTo(new CallResult(true, 42, false));
    }

    @Test
    void exceptionRaisesAndTheMinionCarriesOn() {
        assertThat(call("test.exception", "Oh noes!")).isEqualTo(CallResult.failed("ERROR: Oh noes!", 1));
        assertThat(call("test.exception")).isEqualTo(CallResult.failed("ERROR: Test Exception", 1));
        assertThat(call("test.ping")).isEqualTo(CallResult.ok(true));
    }

    @Test
    void trueFalseOutputterAndGetOpts() {
        assertThat(call("test.true")).isEqualTo(CallResult.ok(true));
        assertThat(call("test.false")).isEqualTo(CallResult.ok(false));
        assertThat(call("test.outputter", List.of(1L, "a"))).isEqualTo(CallResult.ok(List.of(1L, "a")));
        assertThat(call("test.get_opts")).isEqualTo(CallResult.ok(Map.of("id", "t", "master", "salt")));
    }

    @Test
    void everyFunctionOfIssueFiveExists() {
        assertThat(registry.functionNames()).contains("test.ping", "test.echo", "test.sleep", "test.rand_sleep",
                "test.version", "test.versions_report", "test.arg", "test.kwarg", "test.retcode", "test.exception",
                "test.fib", "test.true", "test.false");
    }

    @Test
    void randSleepWithMaxZeroReturnsTrueAtOnce() {
        assertThat(call("test.rand_sleep", Map.of("__kwarg__", true, "max", 0))).isEqualTo(CallResult.ok(true));
        assertThat(call("test.rand_sleep", -1).ret()).isEqualTo("ERROR: max must not be negative, got -1");
    }

    @Test
    void fibReturnsTheNumberAndTheTimeItTook() {
        CallResult result = call("test.fib", 10);

        assertThat(result.success()).isTrue();
        List<?> ret = (List<?>) result.ret();
        assertThat(ret).hasSize(2);
        assertThat(ret.get(0)).isEqualTo(55L);
        assertThat((Double) ret.get(1)).isGreaterThanOrEqualTo(0.0);
        assertThat(((List<?>) call("test.fib", 0).ret()).get(0)).isEqualTo(0L);
        assertThat(((List<?>) call("test.fib", 1).ret()).get(0)).isEqualTo(1L);
        assertThat(((List<?>) call("test.fib", 92).ret()).get(0)).isEqualTo(7540113804746346429L);
    }

    @Test
    void fibRefusesNegativeAndOversizedNumbers() {
        assertThat(call("test.fib", -1).ret()).isEqualTo("ERROR: Negative number is not allowed!");
        assertThat(call("test.fib", 93).ret()).asString().startsWith("ERROR: fib(93) does not fit in 64 bits");
    }

    @Test
    void versionsReportFollowsSaltsLayout() {
        ModuleRegistry withGrains = ModuleRegistry.builtIn(SimpleModuleContext.builder().minionId("t")
                .grains(Map.of("os", "Debian", "osrelease", "12", "oscodename", "bookworm", "kernel", "Linux",
                        "kernelrelease", "6.1.0", "cpuarch", "x86_64", "osfullname", "Debian GNU/Linux"))
                .build());

        String report = (String) withGrains.call("test.versions_report", List.of()).ret();

        assertThat(report).startsWith("Salt Version:\n").contains("\n \nJava Version:\n", "\n \nSystem Versions:\n");
        assertThat(report.lines()).anyMatch(line -> line.matches(" +jsalt: \\S+"))
                .anyMatch(line -> line.matches(" +dist: debian 12 bookworm"))
                .anyMatch(line -> line.matches(" +system: Linux"))
                .anyMatch(line -> line.matches(" +version: Debian GNU/Linux 12 bookworm"));
        assertThat(withGrains.call("test.versions", List.of()).ret()).isEqualTo(report);
        assertThat(ModuleCalls.asMap(withGrains.call("test.versions_information", List.of()).ret()))
                .containsOnlyKeys("Salt Version", "Java Version", "System Versions");
    }
}
