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
        assertThat(r.changes()).isEqualTo(Map.of("cmd", "touch " + marker)); // Salt 3006.8 reports the command
        assertThat(Files.exists(marker)).isFalse();
    }

    // The expected values below are what salt-call --local state.apply (Salt 3006.8) returned for the same states.

    @Test
    void statefulReadsTheLastLineOfNameValuePairsWithSaltsStdoutQuirk() {
        StateResult r = CmdStates.run(call(root, false, "echo \"changed=yes comment=ok\"", "stateful", true));
        assertThat(r.result()).isTrue();
        assertThat(r.comment()).isEqualTo("ok");
        // Salt cuts stdout before the last line; a one-line output loses its last character (stdout[:-1])
        assertThat(r.changes()).containsEntry("changed", "yes").containsEntry("retcode", 0)
                .containsEntry("stdout", "changed=yes comment=o").containsEntry("stderr", "").containsKey("pid");
        assertThat(r.changes()).doesNotContainKey("comment");
    }

    @Test
    void statefulReadsAJsonObjectAndHidesItsStdout() {
        StateResult r = CmdStates.run(call(root, false, "echo '{\"changed\": true, \"comment\": \"j\", \"x\": 1}'",
                "stateful", true));
        assertThat(r.result()).isTrue();
        assertThat(r.comment()).isEqualTo("j");
        assertThat(r.changes()).containsEntry("changed", true).containsEntry("x", 1).containsEntry("stdout", "");
    }

    @Test
    void statefulWithoutAChangeReportsNoneAndBadOutputFails() {
        StateResult same = CmdStates.run(call(root, false, "printf 'hello\\nchanged=no\\n'", "stateful", true));
        assertThat(same.result()).isTrue();
        assertThat(same.changes()).isEmpty();
        assertThat(same.comment()).isEmpty();

        StateResult bad = CmdStates.run(call(root, false, "echo 'a=b=c'", "stateful", true));
        assertThat(bad.result()).isFalse();
        assertThat(bad.comment()).isEqualTo("Failed parsing script output! Stdout must be JSON or a line of name=value pairs.");
        assertThat(bad.changes()).containsEntry("stdout", "a=b=c").containsEntry("retcode", 0);

        StateResult list = CmdStates.run(call(root, false, "echo '[1]'", "stateful", true));
        assertThat(list.result()).isFalse();
        assertThat(list.comment()).isEqualTo("script JSON output must be a JSON object (e.g., {})!");

        StateResult err = CmdStates.run(call(root, false, "echo oops >&2", "stateful", true));
        assertThat(err.result()).isTrue();
        assertThat(err.comment()).isEqualTo("oops");
        assertThat(err.changes()).isEmpty();
    }

    @Test
    void aStatefulTestNameRunsInTestModeInsteadOfTheCommand() {
        Path marker = work.resolve("never");
        StateResult r = CmdStates.run(call(root, true, "touch " + marker, "stateful",
                list(Map.of("test_name", "echo changed=true"))));
        assertThat(r.result()).isNull();
        assertThat(r.comment()).isEmpty();
        assertThat(r.changes()).containsEntry("changed", "true").containsEntry("stdout", "changed=tru");
        assertThat(Files.exists(marker)).isFalse();

        StateResult plain = CmdStates.run(call(root, true, "echo x", "stateful", true));
        assertThat(plain.result()).isNull();
        assertThat(plain.comment()).isEmpty();
        assertThat(plain.changes()).isEmpty();
    }

    @Test
    void successRetcodesAndSuccessStdoutTurnAFailureIntoSuccessAndHideOutputBlanksIt() {
        StateResult codes = CmdStates.run(call(root, false, "exit 3", "success_retcodes", list(3)));
        assertThat(codes.result()).isTrue();
        assertThat(codes.changes()).containsEntry("retcode", 0);
        assertThat(CmdStates.run(call(root, false, "exit 4", "success_retcodes", "3, 5")).result()).isFalse();

        StateResult out = CmdStates.run(call(root, false, "echo fine; exit 4", "success_stdout", "fine"));
        assertThat(out.result()).isTrue();
        assertThat(out.comment()).isEqualTo("Command \"echo fine; exit 4\" run");
        assertThat(out.changes()).containsEntry("retcode", 0).containsEntry("stdout", "fine");

        StateResult hidden = CmdStates.run(call(root, false, "echo secret", "hide_output", true));
        assertThat(hidden.changes()).containsEntry("stdout", "").containsEntry("stderr", "");
    }

    @Test
    void aMalformedEnvOrAMissingFolderFailsBeforeAnythingRuns() {
        StateResult env = CmdStates.run(call(root, true, "true", "env", "abc"));
        assertThat(env.result()).isFalse();
        assertThat(env.comment()).isEqualTo("Invalidly-formatted 'env' parameter. See documentation.");
        StateResult cwd = CmdStates.run(call(root, false, "true", "cwd", work.resolve("nowhere").toString()));
        assertThat(cwd.result()).isFalse();
        assertThat(cwd.comment()).isEqualTo("Desired working directory \"" + work.resolve("nowhere") + "\" is not available");
    }
}
