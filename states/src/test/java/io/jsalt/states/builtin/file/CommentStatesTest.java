package io.jsalt.states.builtin.file;

import static io.jsalt.states.builtin.file.FileCalls.call;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.states.run.StateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** file.comment and file.uncomment; files, diffs and comments as salt-call --local 3006.8 gave them. */
class CommentStatesTest {
    @TempDir
    Path srv;
    @TempDir
    Path target;

    @Test
    void commentsTheMatchingLinesOnceAndKeepsABackup() throws Exception {
        Path file = Files.writeString(target.resolve("conf"), "color = red\nsize = 2\n#already = 1\n");
        assertThat(CommentStates.comment(call(srv, true, file.toString(), "regex", "^color =")))
                .isEqualTo(StateResult.wouldChange(Map.of(file.toString(), "updated"), "File " + file + " is set to be updated"));
        assertThat(CommentStates.comment(call(srv, false, file.toString(), "regex", "^color =")))
                .isEqualTo(StateResult.changed(Map.of("diff",
                        "--- \n+++ \n@@ -1,3 +1,3 @@\n-color = red\n+#color = red\n size = 2\n #already = 1\n"),
                        "Commented lines successfully"));
        assertThat(Files.readString(file)).isEqualTo("#color = red\nsize = 2\n#already = 1\n");
        assertThat(Files.readString(target.resolve("conf.bak"))).isEqualTo("color = red\nsize = 2\n#already = 1\n");
        assertThat(CommentStates.comment(call(srv, false, file.toString(), "regex", "^color =")))
                .isEqualTo(StateResult.ok("Pattern already commented"));
        assertThat(CommentStates.comment(call(srv, false, file.toString(), "regex", "^nothing")))
                .isEqualTo(StateResult.failed("nothing: Pattern not found"));
        assertThat(CommentStates.comment(call(srv, false, file.toString(), "regex", "^nothing", "ignore_missing", true)))
                .isEqualTo(StateResult.ok("Pattern not found and ignore_missing set to True"));
    }

    @Test
    void uncommentRemovesTheCommentCharacterOnly() throws Exception {
        Path file = Files.writeString(target.resolve("conf"), "#color = red\n# size = 2\nplain = 1\n");
        assertThat(CommentStates.uncomment(call(srv, false, file.toString(), "regex", "^color", "backup", false))
                .comment()).isEqualTo("Uncommented lines successfully");
        // as Salt, the blank after the character stays
        assertThat(CommentStates.uncomment(call(srv, false, file.toString(), "regex", "size = 2$", "backup", false))
                .result()).isTrue();
        assertThat(Files.readString(file)).isEqualTo("color = red\n size = 2\nplain = 1\n");
        assertThat(Files.exists(target.resolve("conf.bak"))).isFalse();
        assertThat(CommentStates.uncomment(call(srv, false, file.toString(), "regex", "^plain")))
                .isEqualTo(StateResult.ok("Pattern already uncommented"));
        assertThat(CommentStates.uncomment(call(srv, false, file.toString(), "regex", "^zzz")))
                .isEqualTo(StateResult.failed("^zzz: Pattern not found"));
    }
}
