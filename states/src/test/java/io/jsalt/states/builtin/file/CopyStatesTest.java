package io.jsalt.states.builtin.file;

import static io.jsalt.states.builtin.file.FileCalls.call;
import static io.jsalt.states.builtin.file.FileCalls.mode;
import static io.jsalt.states.builtin.file.FileCalls.owner;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.builtin.file.FileModes;
import io.jsalt.states.run.StateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** file.copy and file.rename; comments and changes as salt-call --local 3006.8 gave them. */
class CopyStatesTest {
    @TempDir
    Path srv;
    @TempDir
    Path target;

    @Test
    void copyKeepsTheSourcesModeAndLeavesAnExistingTargetUnlessForced() throws Exception {
        Path src = Files.writeString(target.resolve("src"), "copy me\n");
        FileModes.apply(src, 0640);
        Path copy = target.resolve("copy");
        String copied = "Copied \"" + src + "\" to \"" + copy + "\"";
        assertThat(CopyStates.copy(call(srv, true, copy.toString(), "source", src.toString())))
                .isEqualTo(StateResult.wouldChange(Map.of(), "File \"" + src + "\" is set to be copied to \"" + copy + "\""));
        assertThat(CopyStates.copy(call(srv, false, copy.toString(), "source", src.toString())))
                .isEqualTo(StateResult.changed(Map.of(copy.toString(), src.toString()), copied));
        assertThat(mode(copy)).isEqualTo("0640");
        Files.writeString(copy, "changed\n");
        assertThat(CopyStates.copy(call(srv, false, copy.toString(), "source", src.toString())))
                .isEqualTo(StateResult.ok("The target file \"" + copy + "\" exists and will not be overwritten"));
        assertThat(CopyStates.copy(call(srv, false, copy.toString(), "source", src.toString(), "force", true)).result())
                .isTrue();
        assertThat(Files.readString(copy)).isEqualTo("copy me\n");
    }

    @Test
    void copySetsTheOwnerAndModeAsked() throws Exception {
        Path src = Files.writeString(target.resolve("src"), "x\n");
        Path copy = target.resolve("owned");
        assertThat(CopyStates.copy(call(srv, false, copy.toString(), "source", src.toString(), "user", "nobody",
                "mode", 600)).changes()).isEqualTo(Map.of(copy.toString(), src.toString(), "user", "nobody",
                        "group", "nogroup", "mode", "0600"));
        assertThat(owner(copy)).isEqualTo("nobody:nogroup");
        assertThat(CopyStates.copy(call(srv, false, target.resolve("x").toString(), "source", target.resolve("none")
                .toString()))).isEqualTo(StateResult.failed("Source file \"" + target.resolve("none") + "\" is not present"));
    }

    @Test
    void renameMovesOnceAndThenSaysTheSourceIsGone() throws Exception {
        Path src = Files.writeString(target.resolve("src"), "move me\n");
        Path dest = target.resolve("dest");
        assertThat(CopyStates.rename(call(srv, false, dest.toString(), "source", src.toString())))
                .isEqualTo(StateResult.changed(Map.of(dest.toString(), src.toString()),
                        "Moved \"" + src + "\" to \"" + dest + "\""));
        assertThat(Files.readString(dest)).isEqualTo("move me\n");
        assertThat(CopyStates.rename(call(srv, false, dest.toString(), "source", src.toString())))
                .isEqualTo(StateResult.ok("Source file \"" + src + "\" has already been moved out of place"));
        Path other = Files.writeString(target.resolve("other"), "y");
        assertThat(CopyStates.rename(call(srv, false, dest.toString(), "source", other.toString())))
                .isEqualTo(StateResult.ok("The target file \"" + dest + "\" exists and will not be overwritten"));
    }
}
