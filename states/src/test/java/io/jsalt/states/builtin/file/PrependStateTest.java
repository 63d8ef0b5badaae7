package io.jsalt.states.builtin.file;

import static io.jsalt.states.builtin.file.FileCalls.call;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.states.run.StateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** file.prepend; files, diffs and comments as salt-call --local 3006.8 gave them. */
class PrependStateTest {
    @TempDir
    Path srv;
    @TempDir
    Path target;

    @Test
    void prependsOnlyTheTextsNotThere() throws Exception {
        Path file = Files.writeString(target.resolve("f"), "one\nbody\n");
        Object[] args = {"text", List.of("one", "two")};
        assertThat(PrependState.run(call(srv, true, file.toString(), args))).isEqualTo(StateResult.wouldChange(
                Map.of("diff", "--- \n+++ \n@@ -1,2 +1,3 @@\n+two\n one\n body\n"), "File " + file + " is set to be updated"));
        assertThat(PrependState.run(call(srv, false, file.toString(), args))).isEqualTo(StateResult.changed(
                Map.of("diff", "--- \n+++ \n@@ -1,2 +1,3 @@\n+two\n one\n body\n"), "Prepended 1 lines"));
        assertThat(Files.readString(file)).isEqualTo("two\none\nbody\n");
        assertThat(PrependState.run(call(srv, false, file.toString(), args)))
                .isEqualTo(StateResult.ok("File " + file + " is in correct state"));
    }

    @Test
    void aHeaderIsLeftWhenTheFileStartsWithItAndAMissingFileIsCreated() throws Exception {
        Path file = Files.writeString(target.resolve("h"), "# header\nbody\n");
        assertThat(PrependState.run(call(srv, false, file.toString(), "text", "# header", "header", true)))
                .isEqualTo(StateResult.ok("File " + file + " is in correct state"));
        Path fresh = target.resolve("new");
        assertThat(PrependState.run(call(srv, false, fresh.toString(), "text", "fresh")).comment())
                .isEqualTo("Prepended 1 lines");
        assertThat(Files.readString(fresh)).isEqualTo("fresh\n");
    }
}
