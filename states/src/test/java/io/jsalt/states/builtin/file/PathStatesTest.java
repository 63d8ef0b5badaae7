package io.jsalt.states.builtin.file;

import static io.jsalt.states.builtin.file.FileCalls.call;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.states.run.StateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** file.exists, file.missing, file.touch; comments and changes as salt-call --local 3006.8 gave them. */
class PathStatesTest {
    @TempDir
    Path srv;
    @TempDir
    Path target;

    @Test
    void existsAndMissingOnlyLook() throws Exception {
        Path file = Files.writeString(target.resolve("f"), "x");
        Path none = target.resolve("none");
        assertThat(PathStates.exists(call(srv, false, file.toString()))).isEqualTo(StateResult.ok("Path " + file + " exists"));
        assertThat(PathStates.exists(call(srv, false, none.toString())))
                .isEqualTo(StateResult.failed("Specified path " + none + " does not exist"));
        assertThat(PathStates.missing(call(srv, false, none.toString()))).isEqualTo(StateResult.ok("Path " + none + " is missing"));
        assertThat(PathStates.missing(call(srv, false, file.toString())))
                .isEqualTo(StateResult.failed("Specified path " + file + " exists"));
    }

    @Test
    void touchCreatesAnEmptyFileOrSetsTheTimes() throws Exception {
        Path file = target.resolve("a/b/f");
        assertThat(PathStates.touch(call(srv, true, file.toString(), "makedirs", true)))
                .isEqualTo(StateResult.wouldChange(Map.of("new", file.toString()), "File " + file + " is set to be created"));
        assertThat(Files.exists(file.getParent())).isFalse();
        assertThat(PathStates.touch(call(srv, false, file.toString())))
                .isEqualTo(StateResult.failed("Directory not present to touch file " + file));
        assertThat(PathStates.touch(call(srv, false, file.toString(), "makedirs", true)))
                .isEqualTo(StateResult.changed(Map.of("new", file.toString()), "Created empty file " + file));
        assertThat(Files.size(file)).isZero();
        assertThat(PathStates.touch(call(srv, false, file.toString(), "mtime", 1700000000)))
                .isEqualTo(StateResult.changed(Map.of("touched", file.toString()), "Updated times on file " + file));
        assertThat(Files.getLastModifiedTime(file).toMillis()).isEqualTo(1700000000000L);
        // Salt compares the given times as text with the file's float times: they always read as a change
        assertThat(PathStates.touch(call(srv, true, file.toString(), "mtime", 1700000000)).changes())
                .isEqualTo(Map.of("touched", file.toString()));
        assertThat(PathStates.touch(call(srv, true, file.toString())))
                .isEqualTo(new StateResult(true, Map.of("new", file.toString()),
                        "File " + file + " exists and has the correct times"));
    }
}
