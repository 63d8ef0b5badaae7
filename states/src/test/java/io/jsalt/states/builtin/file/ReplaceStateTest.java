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

/** file.replace; diffs and comments as salt-call --local 3006.8 gave them for the same files. */
class ReplaceStateTest {
    @TempDir
    Path srv;
    @TempDir
    Path target;

    @Test
    void replacesWithABackupAndReportsTheDiff() throws Exception {
        Path file = Files.writeString(target.resolve("conf"), "foo=1\nbar=2\n");
        Object[] args = {"pattern", "^foo=.*$", "repl", "foo=2"};
        assertThat(ReplaceState.run(call(srv, true, file.toString(), args))).isEqualTo(StateResult.wouldChange(
                Map.of("diff", "--- \n+++ \n@@ -1,2 +1,2 @@\n-foo=1\n+foo=2\n bar=2\n"), "Changes would have been made"));
        assertThat(Files.readString(file)).isEqualTo("foo=1\nbar=2\n");
        assertThat(ReplaceState.run(call(srv, false, file.toString(), args)).comment()).isEqualTo("Changes were made");
        assertThat(Files.readString(file)).isEqualTo("foo=2\nbar=2\n");
        assertThat(Files.readString(target.resolve("conf.bak"))).isEqualTo("foo=1\nbar=2\n");
        assertThat(ReplaceState.run(call(srv, false, file.toString(), args)))
                .isEqualTo(StateResult.ok("No changes needed to be made"));
    }

    @Test
    void countAndFlagsAsPythonsRe() throws Exception {
        Path file = Files.writeString(target.resolve("conf"), "Foo=1\nfoo=2\nfoo=3\n");
        ReplaceState.run(call(srv, false, file.toString(), "pattern", "^foo=\\d", "repl", "foo=9", "count", 1,
                "flags", List.of("IGNORECASE", "MULTILINE"), "backup", false));
        assertThat(Files.readString(file)).isEqualTo("foo=9\nfoo=2\nfoo=3\n");
        assertThat(Files.exists(target.resolve("conf.bak"))).isFalse();
    }

    @Test
    void appendOrPrependWhenNotFoundButNotTwice() throws Exception {
        Path file = Files.writeString(target.resolve("conf"), "foo=1\n");
        Object[] args = {"pattern", "^baz=.*", "repl", "baz=3", "append_if_not_found", true};
        ReplaceState.run(call(srv, false, file.toString(), args));
        assertThat(Files.readString(file)).isEqualTo("foo=1\nbaz=3\n");
        assertThat(ReplaceState.run(call(srv, false, file.toString(), args)).changes()).isEmpty();

        Path other = Files.writeString(target.resolve("other"), "x=1\n");
        Object[] prepend = {"pattern", "^y=.*", "repl", "y=2", "prepend_if_not_found", true, "not_found_content",
            "# y is set below"};
        ReplaceState.run(call(srv, false, other.toString(), prepend));
        assertThat(Files.readString(other)).isEqualTo("# y is set below\nx=1\n");
        // the not-found content is there now: Salt does not prepend it again although the pattern still matches nothing
        assertThat(ReplaceState.run(call(srv, false, other.toString(), prepend)).changes()).isEmpty();
    }

    @Test
    void aMissingFileFailsUnlessIgnored() {
        Path missing = target.resolve("missing");
        assertThat(ReplaceState.run(call(srv, false, missing.toString(), "pattern", "a", "repl", "b")))
                .isEqualTo(StateResult.failed(missing + ": file not found"));
        assertThat(ReplaceState.run(call(srv, false, missing.toString(), "pattern", "a", "repl", "b",
                "ignore_if_missing", true))).isEqualTo(StateResult.ok("No changes needed to be made"));
    }
}
