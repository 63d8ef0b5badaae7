package io.jsalt.states.builtin;

import static io.jsalt.states.TestCalls.call;
import static io.jsalt.states.TestCalls.list;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.states.run.StateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModuleStatesTest {
    @TempDir
    Path root;
    @TempDir
    Path work;

    @Test
    void newStyleCallsEachFunctionWithItsArgumentsAndReportsItsReturn() {
        StateResult r = ModuleStates.run(call(root, false, "say", "test.echo", list(Map.of("text", "hi")),
                "test.arg", list("a", Map.of("k", "v")), "test.ping", null));
        assertThat(r.result()).isTrue();
        assertThat(r.changes()).containsEntry("test.echo", "hi").containsEntry("test.ping", true);
        assertThat(r.changes().get("test.arg")).isEqualTo(Map.of("args", list("a"), "kwargs", Map.of("k", "v")));
        assertThat(r.comment()).isEqualTo("test.echo: hi, test.arg: Success, test.ping: True");
    }

    @Test
    void newStyleRunsCommandsForRealAndFailsOnAFalseOrANonZeroRetcode() {
        Path marker = work.resolve("ran");
        StateResult r = ModuleStates.run(call(root, false, "x", "cmd.run_all", list("touch " + marker + "; exit 3"),
                "test.false", null, "test.echo:2", list("again")));
        assertThat(Files.exists(marker)).isTrue();
        assertThat(r.result()).isFalse();
        assertThat(r.comment()).startsWith("'cmd.run_all' failed: (error message N/A), 'test.false': False, "
                + "test.echo:2: again");
        assertThat(r.changes()).containsOnlyKeys("test.echo:2");
    }

    @Test
    void newStyleInTestModeNamesTheFunctionsAndRunsNothing() {
        Path marker = work.resolve("ran");
        StateResult r = ModuleStates.run(call(root, true, "x", "cmd.run", list("touch " + marker)));
        assertThat(r.result()).isNull();
        assertThat(r.comment()).isEqualTo("Function cmd.run to be executed.");
        assertThat(Files.exists(marker)).isFalse();
        StateResult missing = ModuleStates.run(call(root, true, "x", "no.such", null, "test.ping", null));
        assertThat(missing.result()).isFalse();
        assertThat(missing.comment()).isEqualTo("Unavailable function: no.such. Function test.ping to be executed.");
    }

    @Test
    void newStyleReportsAFunctionThatRefusesItsArguments() {
        StateResult r = ModuleStates.run(call(root, false, "x", "test.echo", list(Map.of("nope", 1))));
        assertThat(r.result()).isFalse();
        assertThat(r.comment()).startsWith("'test.echo' failed: ").contains("nope");
    }

    @Test
    void legacyStyleCallsTheNamedFunctionWithItsNamedArguments() {
        StateResult r = ModuleStates.run(call(root, false, "test.echo", "text", "hello"));
        assertThat(r.result()).isTrue();
        assertThat(r.changes()).isEqualTo(Map.of("ret", "hello"));
        assertThat(r.comment()).isEqualTo("Module function test.echo executed");
        StateResult renamed = ModuleStates.run(call(root, false, "user.info", "m_name", "root"));
        assertThat(((Map<?, ?>) renamed.changes().get("ret")).get("uid")).isEqualTo(0L);
    }

    @Test
    void legacyStyleNamesMissingArgumentsAndUnknownFunctions() {
        assertThat(ModuleStates.run(call(root, false, "test.echo")).comment())
                .isEqualTo("The following arguments are missing: text");
        StateResult unknown = ModuleStates.run(call(root, false, "no.such", "x", 1));
        assertThat(unknown.result()).isFalse();
        assertThat(unknown.comment()).isEqualTo("Module function no.such is not available");
        StateResult test = ModuleStates.run(call(root, true, "test.echo", "text", "x"));
        assertThat(test.result()).isNull();
        assertThat(test.comment()).isEqualTo("Module function test.echo is set to execute");
    }

    @Test
    void legacyStyleFailsWhenTheReturnSaysSo() {
        StateResult r = ModuleStates.run(call(root, false, "cmd.run_all", "cmd", "exit 4"));
        assertThat(r.result()).isFalse();
        assertThat(((Map<?, ?>) r.changes().get("ret")).get("retcode")).isEqualTo(4);
        assertThat(ModuleStates.run(call(root, false, "test.false")).result()).isFalse();
    }
}
