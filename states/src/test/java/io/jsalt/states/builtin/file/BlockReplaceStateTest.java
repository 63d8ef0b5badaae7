package io.jsalt.states.builtin.file;

import static io.jsalt.states.builtin.file.FileCalls.call;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.states.run.StateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** file.blockreplace; files, diffs and comments as salt-call --local 3006.8 gave them. */
class BlockReplaceStateTest {
    @TempDir
    Path srv;
    @TempDir
    Path target;

    @Test
    void theBlockBetweenTheMarkersIsReplacedOnceWithABackup() throws Exception {
        String before = "top\n#-- start managed zone --\nold block\n#-- end managed zone --\nbottom\n";
        Path file = Files.writeString(target.resolve("f"), before);
        Object[] args = {"content", "new line 1\nnew line 2\n"};
        StateResult predicted = BlockReplaceState.run(call(srv, true, file.toString(), args));
        assertThat(predicted).isEqualTo(StateResult.wouldChange(Map.of("diff", "--- \n+++ \n@@ -1,5 +1,6 @@\n top\n "
                + "#-- start managed zone --\n-old block\n+new line 1\n+new line 2\n #-- end managed zone --\n bottom\n"),
                "Changes would be made"));
        assertThat(Files.readString(file)).isEqualTo(before);
        assertThat(BlockReplaceState.run(call(srv, false, file.toString(), args)).comment()).isEqualTo("Changes were made");
        assertThat(Files.readString(file)).isEqualTo(
                "top\n#-- start managed zone --\nnew line 1\nnew line 2\n#-- end managed zone --\nbottom\n");
        assertThat(Files.readString(target.resolve("f.bak"))).isEqualTo(before);
        assertThat(BlockReplaceState.run(call(srv, false, file.toString(), args)))
                .isEqualTo(StateResult.ok("No changes needed to be made"));
    }

    @Test
    void aMissingBlockIsAppendedPrependedOrPutAfterAMatch() throws Exception {
        Path append = Files.writeString(target.resolve("a"), "top\nbottom\n");
        BlockReplaceState.run(call(srv, false, append.toString(), "content", "appended", "append_if_not_found", true));
        assertThat(Files.readString(append))
                .isEqualTo("top\nbottom\n#-- start managed zone --\nappended\n#-- end managed zone --\n");
        Path prepend = Files.writeString(target.resolve("p"), "top\n");
        BlockReplaceState.run(call(srv, false, prepend.toString(), "content", "first", "prepend_if_not_found", true));
        assertThat(Files.readString(prepend)).isEqualTo("#-- start managed zone --\nfirst\n#-- end managed zone --\ntop\n");
        Path after = Files.writeString(target.resolve("s"), "top\n[section]\nbottom\n");
        BlockReplaceState.run(call(srv, false, after.toString(), "content", "key = value", "insert_after_match",
                "^\\[section\\]", "marker_start", "# BEGIN", "marker_end", "# END"));
        assertThat(Files.readString(after)).isEqualTo("top\n[section]\n# BEGIN\nkey = value\n# END\nbottom\n");
    }

    @Test
    void missingOrUnterminatedMarkersFailWithSaltsWords() throws Exception {
        Path none = Files.writeString(target.resolve("n"), "top\n");
        assertThat(BlockReplaceState.run(call(srv, false, none.toString(), "content", "x"))).isEqualTo(StateResult.failed(
                "Encountered error managing block: Cannot edit marked block. Markers were not found in file.. See the log "
                        + "for details."));
        Path open = Files.writeString(target.resolve("o"), "#-- start managed zone --\nnever ends\n");
        assertThat(BlockReplaceState.run(call(srv, false, open.toString(), "content", "x")).comment()).isEqualTo(
                "Encountered error managing block: Unterminated marked block. End of file reached before marker_end.. "
                        + "See the log for details.");
        assertThat(Files.readString(open)).isEqualTo("#-- start managed zone --\nnever ends\n");
    }
}
