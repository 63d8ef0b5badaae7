package io.jsalt.states.builtin.file;

import static io.jsalt.states.builtin.file.FileCalls.call;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.states.run.StateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** file.line; resulting files, diffs and comments as salt-call --local 3006.8 gave them for the same files. */
class LineStateTest {
    @TempDir
    Path srv;
    @TempDir
    Path target;

    private String edit(String before, Object... args) throws Exception {
        Path file = target.resolve("f");
        Files.writeString(file, before);
        StateResult r = LineState.run(call(srv, false, file.toString(), args));
        assertThat(r.result()).as(r.comment()).isTrue();
        return Files.readString(file);
    }

    @Test
    void insertAfterKeepsTheIndentOfTheLineItFollows() throws Exception {
        assertThat(edit("first\n  indented\nlast\n", "mode", "insert", "after", "^  ind", "content", "second"))
                .isEqualTo("first\n  indented\n  second\nlast\n");
        assertThat(edit("first\nlast\n", "mode", "insert", "location", "start", "content", "top"))
                .isEqualTo("top\nfirst\nlast\n");
        // Salt 3006.8 puts a blank line before a line inserted at the end of a file that ends with a new line
        assertThat(edit("first\nlast\n", "mode", "insert", "location", "end", "content", "appended"))
                .isEqualTo("first\nlast\n\nappended");
    }

    @Test
    void replaceDeleteAndEnsure() throws Exception {
        assertThat(edit("first\nold\nlast\n", "mode", "replace", "match", "^old", "content", "new"))
                .isEqualTo("first\nnew\nlast\n");
        assertThat(edit("first\ndrop\nlast\n", "mode", "delete", "content", "drop")).isEqualTo("first\nlast\n");
        assertThat(edit("first\nlast\n", "mode", "ensure", "after", "first", "content", "middle"))
                .isEqualTo("first\nmiddle\nlast\n");
        assertThat(edit("first\nlast\n", "mode", "ensure", "before", "last", "content", "middle"))
                .isEqualTo("first\nmiddle\nlast\n");
        assertThat(edit("a\nlast\n", "mode", "ensure", "after", "^a", "before", "^last", "content", "b"))
                .isEqualTo("a\nb\nlast\n");
    }

    @Test
    void changesAreTheDiffAndASecondRunChangesNothing() throws Exception {
        Path file = Files.writeString(target.resolve("f"), "first\nlast\n");
        Object[] args = {"mode", "ensure", "after", "first", "content", "middle"};
        assertThat(LineState.run(call(srv, true, file.toString(), args))).isEqualTo(StateResult.wouldChange(
                Map.of("diff", "--- \n+++ \n@@ -1,2 +1,3 @@\n first\n+middle\n last\n"), "Changes would be made"));
        assertThat(Files.readString(file)).isEqualTo("first\nlast\n");
        assertThat(LineState.run(call(srv, false, file.toString(), args)).comment()).isEqualTo("Changes were made");
        assertThat(LineState.run(call(srv, false, file.toString(), args)))
                .isEqualTo(StateResult.ok("No changes needed to be made"));
    }

    @Test
    void missingFilesModesAndBoundariesFailWithSaltsWords() throws Exception {
        Path missing = target.resolve("missing");
        assertThat(LineState.run(call(srv, false, missing.toString(), "mode", "insert", "location", "end", "content", "x")))
                .isEqualTo(StateResult.failed(missing + ": file not found"));
        Path file = Files.writeString(target.resolve("f"), "a\nb\n");
        assertThat(LineState.run(call(srv, false, file.toString(), "content", "x")))
                .isEqualTo(StateResult.failed("Mode was not defined. How to process the file?"));
        assertThat(LineState.run(call(srv, false, file.toString(), "mode", "insert", "after", "zzz", "content", "x"))
                .comment()).endsWith("Neither before or after was found in file");
        assertThat(LineState.run(call(srv, false, file.toString(), "mode", "ensure", "after", "a|b", "content", "x"))
                .comment()).endsWith("Found more than expected occurrences in \"after\" expression");
    }

    @Test
    void createMakesTheFileWithItsOwnerAndMode() throws Exception {
        Path file = target.resolve("new");
        assertThat(LineState.run(call(srv, false, file.toString(), "mode", "insert", "location", "start", "content", "x",
                "create", true, "user", "nobody", "file_mode", 640)).result()).isTrue();
        assertThat(Files.readString(file)).isEqualTo("x\n");
        assertThat(FileCalls.owner(file)).startsWith("nobody:");
        assertThat(FileCalls.mode(file)).isEqualTo("0640");
    }
}
