package io.jsalt.states.builtin.file;

import static io.jsalt.states.builtin.file.FileCalls.call;
import static io.jsalt.states.builtin.file.FileCalls.mode;
import static io.jsalt.states.builtin.file.FileCalls.owner;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.states.files.StateFiles;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** file.recurse; changes and comments as salt-call --local 3006.8 returned them for the same tree. */
class RecurseStateTest {
    @TempDir
    Path srv;
    @TempDir
    Path target;

    @BeforeEach
    void tree() throws Exception {
        Files.createDirectories(srv.resolve("web/tree/sub"));
        Files.writeString(srv.resolve("web/tree/a.conf"), "a\n");
        Files.writeString(srv.resolve("web/tree/sub/b.conf"), "b {{ who }}\n");
        Files.writeString(srv.resolve("web/tree/skip.bak"), "x\n");
        Files.writeString(srv.resolve("web/tree2.txt"), "not in the folder\n");
    }

    @Test
    void copiesTheFolderThroughManagedAndDirectoryThenHasNothingToDo() throws Exception {
        Path dest = target.resolve("rec");
        Object[] args = {"source", "salt://web/tree", "template", "jinja", "context", Map.of("who", "me"),
            "exclude_pat", "*.bak", "file_mode", 640, "dir_mode", 750, "user", "nobody"};
        StateResult predicted = RecurseState.run(call(srv, true, dest.toString(), args));
        assertThat(predicted.result()).isNull();
        assertThat(predicted.changes()).containsEntry(dest.resolve("a.conf").toString(),
                Map.of("newfile", dest.resolve("a.conf").toString()));
        assertThat(Files.exists(dest)).isFalse();

        StateResult r = RecurseState.run(call(srv, false, dest.toString(), args));
        assertThat(r.comment()).isEqualTo("Recursively updated " + dest);
        assertThat(r.changes()).isEqualTo(Map.of(
                dest.resolve("a.conf").toString(), Map.of("diff", "New file", "user", "nobody", "mode", "0640"),
                dest.resolve("sub").toString(), Map.of(dest.resolve("sub").toString(), Map.of("directory", "new")),
                dest.resolve("sub/b.conf").toString(), Map.of("diff", "New file", "user", "nobody", "mode", "0640")));
        assertThat(Files.readString(dest.resolve("sub/b.conf"))).isEqualTo("b me\n");
        assertThat(Files.exists(dest.resolve("skip.bak"))).isFalse();
        assertThat(Files.exists(dest.resolve("tree2.txt"))).isFalse();
        assertThat(mode(dest.resolve("sub"))).isEqualTo("0750");
        assertThat(owner(dest.resolve("sub/b.conf"))).startsWith("nobody:");
        assertThat(RecurseState.run(call(srv, false, dest.toString(), args)))
                .isEqualTo(StateResult.ok("The directory " + dest + " is in the correct state"));
    }

    @Test
    void cleanRemovesWhatTheSourceDoesNotHave() throws Exception {
        Path dest = Files.createDirectories(target.resolve("rec"));
        Files.writeString(dest.resolve("stale"), "old\n");
        Object[] args = {"source", "salt://web/tree", "include_pat", "*.conf", "clean", true, "context", Map.of("who", "x")};
        StateResult predicted = RecurseState.run(call(srv, true, dest.toString(), args));
        assertThat(predicted.comment()).contains("#### removed ####\n" + dest.resolve("stale"));
        assertThat(Files.exists(dest.resolve("stale"))).isTrue();
        StateResult r = RecurseState.run(call(srv, false, dest.toString(), args));
        assertThat(r.changes()).containsEntry("removed", List.of(dest.resolve("stale").toString()));
        assertThat(Files.exists(dest.resolve("stale"))).isFalse();
        assertThat(Files.exists(dest.resolve("a.conf"))).isTrue();
    }

    @Test
    void sourcesMustBeFoldersOfTheFileServer() {
        String dest = target.resolve("rec").toString();
        assertThat(RecurseState.run(call(srv, false, dest, "source", "salt://web/nope")))
                .isEqualTo(StateResult.failed("Recurse failed: none of the specified sources were found"));
        assertThat(RecurseState.run(call(srv, false, dest, "source", "/etc")))
                .isEqualTo(StateResult.failed("Invalid source '/etc' (must be a salt:// URI)"));
        assertThat(RecurseState.run(call(srv, false, dest, "source", "salt://web/tree2.txt")))
                .isEqualTo(StateResult.failed("The directory 'web/tree2.txt' does not exist on the salt fileserver in "
                        + "saltenv 'base'"));
        assertThat(RecurseState.run(call(srv, false, dest, "source", "salt://web/tree", "mode", 644)).comment())
                .isEqualTo("'mode' is not allowed in 'file.recurse'. Please use 'file_mode' and 'dir_mode'.");
    }

    @Test
    void whateverTheFileServerListsNothingIsWrittenOutsideTheFolder() throws Exception {
        Path dest = target.resolve("rec");
        Path outside = target.resolve("evil");
        for (String listed : List.of("web/tree/../../evil", "web/tree/sub/../../../evil", "web/tree//evil",
                "web/tree/./evil")) {
            StateResult r = RecurseState.run(withListing(call(srv, false, dest.toString(), "source", "salt://web/tree"),
                    listed));
            assertThat(r.result()).as(listed).isFalse();
            assertThat(r.comment()).as(listed).contains("unsafe file server path");
        }
        assertThat(Files.exists(outside)).isFalse();
        assertThat(Files.exists(dest)).isFalse();
    }

    @Test
    void aLinkAlreadyInTheFolderCannotLeadAWriteOutOfIt() throws Exception {
        Path dest = Files.createDirectories(target.resolve("rec"));
        Path elsewhere = Files.createDirectories(target.resolve("elsewhere"));
        Files.createSymbolicLink(dest.resolve("sub"), elsewhere);
        StateResult r = RecurseState.run(call(srv, false, dest.toString(), "source", "salt://web/tree",
                "context", Map.of("who", "x")));
        assertThat(r).isEqualTo(StateResult.failed("file.recurse: " + dest.resolve("sub/b.conf")
                + " would be written through a link that leaves " + dest));
        try (Stream<Path> files = Files.list(elsewhere)) {
            assertThat(files).isEmpty();
        }
        assertThat(Files.exists(dest.resolve("a.conf"), LinkOption.NOFOLLOW_LINKS)).isFalse();
    }

    /** The call with a file server that lists {@code extra} under web/tree besides the real files. */
    private StateCall withListing(StateCall call, String extra) {
        StateFiles real = call.files();
        StateFiles hostile = new StateFiles() {
            @Override
            public Optional<byte[]> read(String path, String saltenv) {
                return path.contains("evil") ? Optional.of("pwned\n".getBytes(StandardCharsets.UTF_8))
                        : real.read(path, saltenv);
            }

            @Override
            public List<String> list(String prefix, String saltenv) {
                return Stream.concat(real.list(prefix, saltenv).stream(), Stream.of(extra)).toList();
            }
        };
        return new StateCall(call.name(), call.args(), call.test(), call.salt(), hostile, call.jinja(), call.context());
    }
}
