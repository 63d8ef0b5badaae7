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

/** file.append; files, diffs and comments as salt-call --local 3006.8 gave them. */
class AppendStateTest {
    @TempDir
    Path srv;
    @TempDir
    Path target;

    @Test
    void appendsOnlyTheTextsNotThereWhateverTheirWhiteSpace() throws Exception {
        Path file = Files.writeString(target.resolve("f"), "one\ntwo   three\n");
        Object[] args = {"text", List.of("one", "two three", "four")};
        assertThat(AppendState.run(call(srv, true, file.toString(), args))).isEqualTo(StateResult.wouldChange(
                Map.of("diff", "--- \n\n+++ \n\n@@ -1,2 +1,3 @@\n\n one\n two   three\n+four"),
                "File " + file + " is set to be updated"));
        assertThat(AppendState.run(call(srv, false, file.toString(), args))).isEqualTo(StateResult.changed(
                Map.of("diff", "--- \n\n+++ \n\n@@ -1,2 +1,3 @@\n\n one\n two   three\n+four"), "Appended 1 lines"));
        assertThat(Files.readString(file)).isEqualTo("one\ntwo   three\nfour\n");
        assertThat(AppendState.run(call(srv, false, file.toString(), args)))
                .isEqualTo(StateResult.ok("File " + file + " is in correct state"));
    }

    @Test
    void endsAnUnfinishedLastLineFirstAndCreatesAMissingFile() throws Exception {
        Path file = Files.writeString(target.resolve("f"), "no newline");
        AppendState.run(call(srv, false, file.toString(), "text", "added"));
        assertThat(Files.readString(file)).isEqualTo("no newline\nadded\n");
        Path created = target.resolve("new/file");
        assertThat(AppendState.run(call(srv, false, created.toString(), "text", "hi", "makedirs", true)).result()).isTrue();
        assertThat(Files.readString(created)).isEqualTo("hi\n");
    }

    @Test
    void withoutIgnoreWhitespaceATextIsARegularExpression() throws Exception {
        Path file = Files.writeString(target.resolve("f"), "alpha\nbeta\n");
        AppendState.run(call(srv, false, file.toString(), "text", List.of("al.ha", "gamma"), "ignore_whitespace", false));
        assertThat(Files.readString(file)).isEqualTo("alpha\nbeta\ngamma\n");
    }

    @Test
    void aSourceIsRenderedWithJinjaFirst() throws Exception {
        Files.createDirectories(srv.resolve("web"));
        Files.writeString(srv.resolve("web/app.j2"), "port={{ port }}\n");
        Path file = Files.writeString(target.resolve("f"), "a\n");
        AppendState.run(call(srv, false, file.toString(), "source", "salt://web/app.j2", "context", Map.of("port", 1)));
        assertThat(Files.readString(file)).isEqualTo("a\nport=1\n");
    }

    @Test
    void theWhiteSpaceRegexMatchesWordsAsShlexSplitsThem() {
        assertThat("  two \t three ").matches(AppendState.whitespaceSplitRegex("two three"));
        assertThat("two three four").doesNotMatch(AppendState.whitespaceSplitRegex("two three"));
        assertThat("say 'hello world'").matches(AppendState.whitespaceSplitRegex("say  'hello world'"));
    }
}
