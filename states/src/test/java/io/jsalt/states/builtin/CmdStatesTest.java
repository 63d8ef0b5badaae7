package io.jsalt.states.builtin;

import static io.jsalt.states.TestCalls.call;
import static io.jsalt.states.TestCalls.list;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.states.run.StateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CmdStatesTest {
    @TempDir
    Path root;
    @TempDir
    Path work;

    @Test
    void runRunsTheCommandInItsFolderAndReportsItsOutput() throws Exception {
        StateResult r = CmdStates.run(call(root, false, "pwd > out; echo done", "cwd", work.toString()));
        assertThat(r.result()).isTrue();
        assertThat(r.comment()).isEqualTo("Command \"pwd > out; echo done\" run");
        assertThat(r.changes()).containsEntry("retcode", 0).containsEntry("stdout", "done");
        assertThat(Files.readString(work.resolve("out")).strip()).isEqualTo(work.toString());
    }

    @Test
    void aFailingCommandFailsTheState() {
        StateResult r = CmdStates.run(call(root, false, "echo bad >&2; exit 3"));
        assertThat(r.result()).isFalse();
        assertThat(r.changes()).containsEntry("retcode", 3).containsEntry("stderr", "bad");
    }

    @Test
    void unlessOnlyifAndCreatesSkipTheCommand() throws Exception {
        Path marker = work.resolve("ran");
        String cmd = "touch " + marker;
        assertThat(CmdStates.run(call(root, false, cmd, "unless", "true")).comment()).isEqualTo("unless condition is true");
        assertThat(CmdStates.run(call(root, false, cmd, "onlyif", list("true", "false"))).comment())
                .isEqualTo("onlyif condition is false");
        Files.writeString(work.resolve("exists"), "");
        assertThat(CmdStates.run(call(root, false, cmd, "creates", work.resolve("exists").toString())).comment())
                .isEqualTo(work.resolve("exists") + " exists");
        assertThat(CmdStates.run(call(root, false, cmd, "creates", list(work.resolve("exists").toString()))).comment())
                .isEqualTo("All files in creates exist");
        assertThat(CmdStates.run(call(root, false, cmd, "creates", list(work.resolve("exists").toString(),
                work.resolve("missing").toString()), "onlyif", "false")).comment()).isEqualTo("onlyif condition is false");
        assertThat(Files.exists(marker)).isFalse();
        assertThat(CmdStates.run(call(root, false, cmd, "unless", list("true", "false"), "onlyif", "true")).result()).isTrue();
        assertThat(Files.exists(marker)).isTrue();
    }

    @Test
    void testModeRunsNothing() {
        Path marker = work.resolve("ran");
        StateResult r = CmdStates.run(call(root, true, "touch " + marker));
        assertThat(r.result()).isNull();
        assertThat(r.comment()).isEqualTo("Command \"touch " + marker + "\" would have been executed");
        assertThat(Files.exists(marker)).isFalse();
    }
}
