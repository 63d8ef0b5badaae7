package io.jsalt.states.builtin;

import static io.jsalt.states.TestCalls.call;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.states.run.StateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cmd.script}, with what salt-call --local state.apply (Salt 3006.8) returned for the same scripts. */
class CmdScriptStateTest {
    @TempDir
    Path root;
    @TempDir
    Path work;

    private void script(String path, String text) throws Exception {
        Files.createDirectories(root.resolve(path).getParent());
        Files.writeString(root.resolve(path), text);
    }

    @Test
    void runsAScriptFromTheFileServerWithArgsCwdAndEnv() throws Exception {
        script("scripts/s.sh", "#!/bin/sh\necho \"args: $@ in $(pwd) X=$X\"\n");
        StateResult r = CmdScriptState.script(call(root, false, "a", "source", "salt://scripts/s.sh",
                "args", "one \"two three\"", "cwd", work.toString(), "env", List.of(Map.of("X", "y"))));
        assertThat(r.result()).isTrue();
        assertThat(r.comment()).isEqualTo("Command 'a' run");
        assertThat(r.changes()).containsEntry("retcode", 0).containsEntry("stderr", "")
                .containsEntry("stdout", "args: one two three in " + work + " X=y").containsKey("pid");
    }

    @Test
    void rendersAJinjaTemplateWithContextAndReadsItsStatefulOutput() throws Exception {
        script("t.sh", "#!/bin/sh\necho \"port {{ port }} {{ grains['os'] }} {{ level }}\"\n"
                + "echo \"changed=yes comment='hello there' extra=1\"\n");
        StateResult r = CmdScriptState.script(call(root, false, "salt://t.sh", "template", "jinja",
                "defaults", Map.of("port", 80, "level", "low"), "context", Map.of("port", 81), "stateful", true));
        assertThat(r.result()).isTrue();
        assertThat(r.comment()).isEqualTo("hello there");
        assertThat(r.changes()).containsEntry("changed", "yes").containsEntry("extra", "1")
                .containsEntry("retcode", 0).containsEntry("stdout", "port 81 Debian low").containsEntry("stderr", "");
    }

    @Test
    void theNameIsTheSourceAndItsWordsTheArguments() throws Exception {
        script("s.sh", "#!/bin/sh\necho \"$#:$2\"\n");
        Path absolute = work.resolve("local.sh");
        Files.writeString(absolute, "#!/bin/sh\necho \"$#:$2\"\n");
        StateResult r = CmdScriptState.script(call(root, false, absolute + " first second"));
        // Salt 3006.8 takes the whole name as the source, so a salt:// name with words cannot be cached ...
        assertThat(r.result()).isFalse();
        StateResult viaSource = CmdScriptState.script(call(root, false, "salt://s.sh first second",
                "source", "salt://s.sh"));
        // ... while the words still become the arguments when the source is given apart
        assertThat(viaSource.result()).isTrue();
        assertThat(viaSource.changes()).containsEntry("stdout", "2:second");
        assertThat(viaSource.comment()).isEqualTo("Command 'salt://s.sh first second' run");
    }

    @Test
    void aMissingScriptIsSaltsCacheError() {
        StateResult r = CmdScriptState.script(call(root, false, "c", "source", "salt://missing.sh"));
        assertThat(r.result()).isFalse();
        assertThat(r.comment()).isEqualTo("Unable to cache script salt://missing.sh from saltenv 'base'");
        assertThat(r.changes()).isEqualTo(Map.of("pid", 0, "retcode", 1, "stdout", "", "stderr", "", "cache_error", true));
    }

    @Test
    void testModeRunsNothingAndChecksStillApply() throws Exception {
        Path marker = work.resolve("ran");
        script("touch.sh", "#!/bin/sh\ntouch " + marker + "\n");
        StateResult dry = CmdScriptState.script(call(root, true, "t", "source", "salt://touch.sh"));
        assertThat(dry.result()).isNull();
        assertThat(dry.comment()).isEqualTo("Command 't' would have been executed");
        assertThat(dry.changes()).isEmpty();
        assertThat(Files.exists(marker)).isFalse();

        StateResult skipped = CmdScriptState.script(call(root, false, "t", "source", "salt://touch.sh",
                "creates", work.toString()));
        assertThat(skipped.comment()).isEqualTo(work + " exists");
        assertThat(CmdScriptState.script(call(root, false, "t", "source", "salt://touch.sh", "unless", "false",
                "onlyif", "true")).result()).isTrue();
        assertThat(Files.exists(marker)).isTrue();
    }

    @Test
    void badArgumentsFailWithSaltsWords() throws Exception {
        script("s.sh", "#!/bin/sh\ntrue\n");
        assertThat(CmdScriptState.script(call(root, false, "s", "source", "salt://s.sh", "context", "x")).comment())
                .isEqualTo("Invalidly-formatted 'context' parameter. Must be formed as a dict.");
        assertThat(CmdScriptState.script(call(root, false, "s", "source", "salt://s.sh", "cwd", "/nonexistent")).comment())
                .isEqualTo("Desired working directory \"/nonexistent\" is not available");
        StateResult failing = CmdScriptState.script(call(root, false, "s", "source", "salt://s.sh", "args", "x",
                "success_retcodes", List.of(0)));
        assertThat(failing.result()).isTrue();
    }
}
