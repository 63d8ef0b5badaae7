package io.jsalt.states.builtin.file;

import static io.jsalt.states.builtin.file.FileCalls.call;
import static io.jsalt.states.builtin.file.FileCalls.owner;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.states.run.StateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** file.symlink; changes and comments as salt-call --local 3006.8 returned them. */
class SymlinkStateTest {
    @TempDir
    Path srv;
    @TempDir
    Path target;

    @Test
    void createsThenFindsTheLinkOwnedByTheMinionsUser() throws Exception {
        Path link = target.resolve("link");
        String to = target.resolve("file").toString();
        assertThat(SymlinkState.run(call(srv, true, link.toString(), "target", to))).isEqualTo(StateResult.wouldChange(
                Map.of("new", link.toString()), "Symlink " + link + " to " + to + " is set for creation"));
        assertThat(Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
        assertThat(SymlinkState.run(call(srv, false, link.toString(), "target", to))).isEqualTo(StateResult.changed(
                Map.of("new", link.toString()), "Created new symlink " + link + " -> " + to));
        assertThat(Files.readSymbolicLink(link).toString()).isEqualTo(to);
        assertThat(SymlinkState.run(call(srv, false, link.toString(), "target", to)))
                .isEqualTo(StateResult.ok("Symlink " + link + " is present and owned by root:root"));
    }

    @Test
    void aLinkToSomethingElseIsRetargetedAndOwnershipIsSetOnTheLinkItself() throws Exception {
        Path link = Files.createSymbolicLink(target.resolve("link"), target.resolve("wrong"));
        String to = target.resolve("right").toString();
        assertThat(SymlinkState.run(call(srv, true, link.toString(), "target", to)).changes())
                .isEqualTo(Map.of("change", link.toString()));
        assertThat(SymlinkState.run(call(srv, false, link.toString(), "target", to)).changes())
                .isEqualTo(Map.of("new", link.toString()));
        assertThat(SymlinkState.run(call(srv, false, link.toString(), "target", to, "user", "nobody",
                "group", "nogroup"))).isEqualTo(StateResult.changed(Map.of("ownership", "nobody:nogroup"),
                        "Set ownership of symlink " + link + " to nobody:nogroup"));
        assertThat(owner(link)).isEqualTo("nobody:nogroup");
    }

    @Test
    void somethingInTheWayNeedsForceOrABackupName() throws Exception {
        Path file = Files.writeString(target.resolve("file"), "x");
        String to = target.resolve("elsewhere").toString();
        assertThat(SymlinkState.run(call(srv, true, file.toString(), "target", to))).isEqualTo(StateResult.failed(
                "File or directory exists where the symlink " + file + " should be. Did you mean to use force?"));
        assertThat(SymlinkState.run(call(srv, false, file.toString(), "target", to)))
                .isEqualTo(StateResult.failed("File exists where the symlink " + file + " should be"));
        assertThat(SymlinkState.run(call(srv, false, file.toString(), "target", to, "backupname", "file.bak")).result())
                .isTrue();
        assertThat(Files.readString(target.resolve("file.bak"))).isEqualTo("x");
        Path other = Files.writeString(target.resolve("other"), "y");
        assertThat(SymlinkState.run(call(srv, false, other.toString(), "target", to, "force", true)).result()).isTrue();
        assertThat(Files.isSymbolicLink(other)).isTrue();
    }

    @Test
    void aMissingFolderIsMadeOnlyWithMakedirs() {
        Path link = target.resolve("a/b/link");
        assertThat(SymlinkState.run(call(srv, false, link.toString(), "target", "/x")))
                .isEqualTo(StateResult.failed("Directory " + link.getParent() + " for symlink is not present"));
        assertThat(SymlinkState.run(call(srv, false, link.toString(), "target", "/x", "makedirs", true)).result()).isTrue();
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(SymlinkState.run(call(srv, false, target.resolve("l").toString(), "target", "/x", "user", "nosuchuser"))
                .comment()).isEqualTo("User nosuchuser does not exist");
    }

    @Test
    void numericOwnersNeverMatchTheLinksOwnerNamesAsInSalt() {
        Path link = target.resolve("numeric");
        // salt-call 3006.8 gave exactly these two answers for the same state
        assertThat(SymlinkState.run(call(srv, false, link.toString(), "target", "/x", "user", 65534, "group", 65534)))
                .isEqualTo(new StateResult(false, Map.of("new", link.toString()), "Created new symlink " + link
                        + " -> /x, but was unable to set ownership to 65534:65534"));
        assertThat(SymlinkState.run(call(srv, false, link.toString(), "target", "/x", "user", 65534, "group", 65534)))
                .isEqualTo(StateResult.failed("Failed to set ownership of symlink " + link + " to 65534:65534"));
    }
}
