package io.jsalt.states.builtin.file;

import static io.jsalt.states.builtin.file.FileCalls.call;
import static io.jsalt.states.builtin.file.FileCalls.mode;
import static io.jsalt.states.builtin.file.FileCalls.owner;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.builtin.file.FileModes;
import io.jsalt.states.run.StateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** file.directory; changes and comments as salt-call --local 3006.8 returned them for the same trees. */
class DirectoryStateTest {
    @TempDir
    Path srv;
    @TempDir
    Path target;

    @Test
    void makedirsCreatesEveryFolderWithTheOwnerAndModeAndSaltsEmptyComment() throws Exception {
        Path dir = target.resolve("a/b");
        StateResult r = DirectoryState.run(call(srv, false, dir.toString(), "makedirs", true, "user", "nobody",
                "dir_mode", 750));
        assertThat(r).isEqualTo(StateResult.changed(Map.of(dir.toString(), Map.of("directory", "new")), ""));
        assertThat(owner(target.resolve("a"))).startsWith("nobody:");
        assertThat(mode(dir)).isEqualTo("0750");
        assertThat(DirectoryState.run(call(srv, false, dir.toString(), "user", "nobody", "dir_mode", 750)))
                .isEqualTo(StateResult.ok("The directory " + dir + " is in the correct state"));
        assertThat(DirectoryState.run(call(srv, false, target.resolve("no/parent").toString())).comment())
                .isEqualTo("No directory to create " + target.resolve("no/parent") + " in");
    }

    @Test
    void recurseChangesEveryFileAndFolderAndKeepsTheTestReportInTheChanges() throws Exception {
        Path dir = Files.createDirectories(target.resolve("d/sub"));
        Files.writeString(target.resolve("d/f"), "x");
        FileModes.apply(dir, 0700);
        Path top = target.resolve("d");
        Object[] args = {"user", "nobody", "group", 65534, "dir_mode", 755, "file_mode", 600,
            "recurse", List.of("user", "group", "mode")};
        StateResult predicted = DirectoryState.run(call(srv, true, top.toString(), args));
        assertThat(predicted.result()).isNull();
        assertThat(predicted.changes()).isEqualTo(Map.of(
                top.resolve("f").toString(), Map.of("user", "nobody", "group", 65534L, "mode", "0600"),
                dir.toString(), Map.of("user", "nobody", "group", 65534L, "mode", "0755"),
                top.toString(), Map.of("user", "nobody", "group", 65534L)));
        assertThat(predicted.comment()).startsWith("The following files will be changed:\n" + top.resolve("f")
                + ": user - nobody\n");
        assertThat(owner(top.resolve("f"))).isEqualTo("root:root");

        StateResult applied = DirectoryState.run(call(srv, false, top.toString(), args));
        Map<String, Object> expected = new java.util.HashMap<>(predicted.changes());
        // check_perms writes one flat user/group/mode for every path it changed: the last one, folder sub, wins
        expected.putAll(Map.of("user", "nobody", "group", 65534L, "mode", "0755"));
        assertThat(applied).isEqualTo(StateResult.changed(expected, "Directory " + top + " updated"));
        assertThat(owner(top.resolve("f"))).isEqualTo("nobody:nogroup");
        assertThat(mode(top.resolve("f"))).isEqualTo("0600");
        assertThat(mode(dir)).isEqualTo("0755");
        assertThat(DirectoryState.run(call(srv, false, top.toString(), args)).changes()).isEmpty();
    }

    @Test
    void badRecurseTypesAreRefusedWithSaltsWords() throws Exception {
        assertThat(DirectoryState.run(call(srv, false, target.toString(), "recurse", List.of("nonsense"))).comment())
                .isEqualTo("Types for \"recurse\" limited to \"user\", \"group\", \"mode\", \"ignore_files\", "
                        + "\"ignore_dirs\", \"silent\".");
        assertThat(DirectoryState.run(call(srv, false, target.toString(), "recurse",
                List.of("ignore_files", "ignore_dirs"))).comment()).startsWith("Must not specify \"recurse\" options");
    }

    @Test
    void cleanRemovesWhatIsNeitherRequiredNorExcluded() throws Exception {
        Path top = Files.createDirectories(target.resolve("c/keep"));
        top = top.getParent();
        Files.createDirectories(top.resolve("junkdir"));
        for (String f : List.of("junk", "keep/k", "keep.txt", "junkdir/x")) {
            Files.writeString(top.resolve(f), "");
        }
        var kept = FileCalls.fileChunk("k", "managed", top.resolve("keep/k").toString(), Map.of());
        StateResult predicted = DirectoryState.run(FileCalls.requiring(call(srv, true, top.toString(), "clean", true,
                "exclude_pat", "*.txt"), kept));
        assertThat(predicted.changes()).containsOnlyKeys(top.resolve("junk").toString(), top.resolve("junkdir").toString(),
                top.resolve("junkdir/x").toString(), top.resolve("keep").toString()); // Salt lists the kept file's folder too
        assertThat(Files.exists(top.resolve("junk"))).isTrue();

        StateResult r = DirectoryState.run(FileCalls.requiring(call(srv, false, top.toString(), "clean", true,
                "exclude_pat", "*.txt"), kept));
        assertThat(r.comment()).isEqualTo("Files cleaned from directory " + top);
        assertThat(r.changes()).containsEntry("removed", List.of(top.resolve("junk").toString(),
                top.resolve("junkdir").toString()));
        assertThat(Files.exists(top.resolve("keep/k"))).isTrue();
        assertThat(Files.exists(top.resolve("keep.txt"))).isTrue();
        assertThat(Files.exists(top.resolve("junk"))).isFalse();
        assertThat(Files.exists(top.resolve("junkdir"))).isFalse();
    }

    @Test
    void aFileWhereTheFolderShouldBeFails() throws Exception {
        Path file = Files.writeString(target.resolve("f"), "x");
        assertThat(DirectoryState.run(call(srv, false, file.toString())))
                .isEqualTo(StateResult.failed("Specified location " + file + " exists and is a file"));
    }

    @Test
    void somethingInTheWayIsMovedToTheBackupNameOrForciblyReplaced() throws Exception {
        Path file = Files.writeString(target.resolve("d"), "f");
        Path backup = target.resolve("d.bak");
        assertThat(DirectoryState.run(call(srv, true, file.toString(), "backupname", backup.toString())))
                .isEqualTo(new StateResult(null, Map.of("backup", file + " would be renamed to " + backup,
                        file.toString(), Map.of("directory", "new")),
                        file + " would be backed up and replaced with a new directory"));
        assertThat(Files.isRegularFile(file)).isTrue();
        assertThat(DirectoryState.run(call(srv, false, file.toString(), "backupname", backup.toString())).result()).isTrue();
        assertThat(Files.isDirectory(file)).isTrue();
        assertThat(Files.readString(backup)).isEqualTo("f");

        Path other = Files.writeString(target.resolve("e"), "f");
        assertThat(DirectoryState.run(call(srv, false, other.toString(), "force", true)))
                .isEqualTo(StateResult.changed(Map.of("forced", "File was forcibly replaced",
                        other.toString(), Map.of("directory", "new")), ""));
        assertThat(Files.isDirectory(other)).isTrue();

        Path link = Files.createSymbolicLink(target.resolve("l"), Files.createDirectories(target.resolve("real")));
        assertThat(DirectoryState.run(call(srv, false, link.toString())).comment())
                .isEqualTo("The directory " + link + " is in the correct state");
        assertThat(DirectoryState.run(call(srv, false, link.toString(), "allow_symlink", false)))
                .isEqualTo(StateResult.failed("Specified location " + link + " exists and is a symlink"));
    }
}
