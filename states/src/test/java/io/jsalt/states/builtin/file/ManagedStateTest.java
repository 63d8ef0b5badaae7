package io.jsalt.states.builtin.file;

import static io.jsalt.states.builtin.file.FileCalls.call;
import static io.jsalt.states.builtin.file.FileCalls.mode;
import static io.jsalt.states.builtin.file.FileCalls.owner;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.states.run.StateResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** file.managed; the expected changes and comments are what salt-call --local 3006.8 returned for the same calls. */
class ManagedStateTest {
    private static final String NOTE = "\nNote: No changes made, actual changes may\nbe different due to other states.";

    @TempDir
    Path srv;
    @TempDir
    Path target;

    @Test
    void aNewFileGetsItsOwnerByNameAndModeAndReportsThem() throws Exception {
        Path file = target.resolve("motd");
        StateResult r = ManagedState.run(call(srv, false, file.toString(), "contents", "hello", "mode", 640,
                "user", "nobody", "group", "nogroup"));
        assertThat(r).isEqualTo(StateResult.changed(Map.of("diff", "New file", "user", "nobody", "group", "nogroup",
                "mode", "0640"), "File " + file + " updated"));
        assertThat(owner(file)).isEqualTo("nobody:nogroup");
        assertThat(mode(file)).isEqualTo("0640");
        assertThat(Files.readString(file)).isEqualTo("hello\n");
        assertThat(ManagedState.run(call(srv, false, file.toString(), "contents", "hello", "mode", "0640",
                "user", "nobody", "group", "nogroup"))).isEqualTo(StateResult.ok("File " + file + " is in the correct state"));
    }

    @Test
    void ownersGivenAsNumbersAreIdsAndChangesNameThemAsGiven() throws Exception {
        Path file = target.resolve("ids");
        Files.writeString(file, "x\n");
        StateResult r = ManagedState.run(call(srv, false, file.toString(), "contents", "x", "user", 65534, "group", 65534));
        assertThat(r.changes()).isEqualTo(Map.of("user", 65534L, "group", 65534L));
        assertThat(owner(file)).isEqualTo("nobody:nogroup");
        assertThat(ManagedState.run(call(srv, false, file.toString(), "contents", "x", "user", 65534, "group", 65534))
                .changes()).isEmpty();
    }

    @Test
    void anUnknownUserOrGroupFailsWithSaltsWordsButNotInTestMode() {
        Path file = target.resolve("f");
        assertThat(ManagedState.run(call(srv, false, file.toString(), "contents", "x", "user", "nosuchuser",
                "group", "nosuchgroup"))).isEqualTo(StateResult.failed(
                        "User nosuchuser is not available Group nosuchgroup is not available"));
        assertThat(ManagedState.run(call(srv, true, file.toString(), "contents", "x", "user", "nosuchuser")).changes())
                .isEqualTo(Map.of("newfile", file.toString()));
        assertThat(Files.exists(file)).isFalse();
    }

    @Test
    void aSourceFileIsCopiedWithTheUmasksModeReportedAndNeitherSourceNorContentsMakesAnEmptyFile() throws Exception {
        Files.createDirectories(srv.resolve("web"));
        Files.writeString(srv.resolve("web/src.txt"), "line one\n");
        Path copy = target.resolve("copy");
        assertThat(ManagedState.run(call(srv, false, copy.toString(), "source", "salt://web/src.txt")).changes())
                .isEqualTo(Map.of("diff", "New file", "mode", "0644"));
        assertThat(mode(copy)).isEqualTo("0644");
        Path empty = target.resolve("empty");
        assertThat(ManagedState.run(call(srv, false, empty.toString())))
                .isEqualTo(StateResult.changed(Map.of("new", "file " + empty + " created"), "Empty file"));
        assertThat(ManagedState.run(call(srv, false, empty.toString())))
                .isEqualTo(StateResult.ok("File " + empty + " exists with proper permissions. No changes made."));
    }

    @Test
    void theFirstSourceOfAListThatExistsIsUsed() throws Exception {
        Files.createDirectories(srv.resolve("web"));
        Files.writeString(srv.resolve("web/b.txt"), "b\n");
        Path file = target.resolve("f");
        assertThat(ManagedState.run(call(srv, false, file.toString(), "source",
                List.of("salt://web/a.txt", "salt://web/b.txt"))).result()).isTrue();
        assertThat(Files.readString(file)).isEqualTo("b\n");
        assertThat(ManagedState.run(call(srv, false, target.resolve("g").toString(), "source",
                List.of("salt://web/a.txt", "salt://web/c.txt")))).isEqualTo(StateResult.failed(
                        "Unable to manage file: none of the specified sources were found"));
    }

    @Test
    void aLocalSourceIsCheckedAgainstItsSourceHash() throws Exception {
        Path local = target.resolve("local.txt");
        Files.writeString(local, "local src\n");
        String sha = SourceHash.digest("sha256", "local src\n".getBytes(StandardCharsets.UTF_8));
        String md5 = SourceHash.digest("md5", "local src\n".getBytes(StandardCharsets.UTF_8));
        Path good = target.resolve("good");
        assertThat(ManagedState.run(call(srv, false, good.toString(), "source", local.toString(), "source_hash",
                "sha256=" + sha)).result()).isTrue();
        assertThat(ManagedState.run(call(srv, false, target.resolve("bare").toString(), "source", "file://" + local,
                "source_hash", md5)).result()).isTrue();

        String wrong = "a".repeat(64);
        Path bad = target.resolve("bad");
        assertThat(ManagedState.run(call(srv, false, bad.toString(), "source", local.toString(), "source_hash",
                "sha256=" + wrong))).isEqualTo(StateResult.failed("Specified sha256 checksum for " + bad + " (" + wrong
                        + ") does not match actual checksum (" + sha + ")"));
        assertThat(Files.exists(bad)).isFalse();

        Path existing = target.resolve("existing");
        Files.writeString(existing, "old\n");
        assertThat(ManagedState.run(call(srv, false, existing.toString(), "source", local.toString(), "source_hash",
                wrong)).comment()).isEqualTo("Specified sha256 checksum for " + local + " (" + wrong + ") does not match "
                        + "actual checksum (" + sha + "). If the 'source_hash' value refers to a remote file with multiple "
                        + "possible matches, then it may be necessary to set 'source_hash_name'.");
        assertThat(Files.readString(existing)).isEqualTo("old\n");
    }

    @Test
    void aHashFileOnTheFileServerGivesTheHashOfTheLineNamingTheFile() throws Exception {
        Path local = target.resolve("local.txt");
        Files.writeString(local, "local src\n");
        String sha = SourceHash.digest("sha256", "local src\n".getBytes(StandardCharsets.UTF_8));
        Files.createDirectories(srv.resolve("web"));
        Files.writeString(srv.resolve("web/hashes"), "b".repeat(64) + "  other.txt\n" + sha + "  app.conf\n");
        Path file = target.resolve("app.conf");
        assertThat(ManagedState.run(call(srv, false, file.toString(), "source", local.toString(), "source_hash",
                "salt://web/hashes")).result()).isTrue();
        assertThat(ManagedState.run(call(srv, false, file.toString(), "source", local.toString(), "source_hash",
                "salt://web/nohashes"))).isEqualTo(StateResult.failed("Source hash file salt://web/nohashes not found"));
        assertThat(ManagedState.run(call(srv, false, file.toString(), "source", local.toString(), "source_hash", "xyz"))
                .comment()).startsWith("Source hash xyz format is invalid. The supported formats are: 1) a hash, ");
    }

    @Test
    void backupMinionKeepsTheOldFileUnderTheCachedirWithSaltsName(@TempDir Path cachedir) throws Exception {
        Path file = target.resolve("etc/app.conf");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "old\n");
        io.jsalt.modules.builtin.file.FileModes.apply(file, 0640);
        StateResult r = ManagedState.run(FileCalls.withCachedir(call(srv, false, file.toString(), "contents", "new",
                "backup", "minion"), cachedir));
        assertThat(r.changes()).isEqualTo(Map.of("diff", "--- \n+++ \n@@ -1 +1 @@\n-old\n+new\n"));
        Path folder = cachedir.resolve("file_backup").resolve(target.toString().substring(1)).resolve("etc");
        List<Path> backups;
        try (Stream<Path> list = Files.list(folder)) {
            backups = list.toList();
        }
        assertThat(backups).hasSize(1);
        assertThat(backups.get(0).getFileName().toString())
                .matches("app\\.conf_[A-Z][a-z]{2}_[A-Z][a-z]{2}_\\d\\d_\\d\\d:\\d\\d:\\d\\d_\\d{6}_\\d{4}");
        assertThat(Files.readString(backups.get(0))).isEqualTo("old\n");
        assertThat(mode(backups.get(0))).isEqualTo("0640"); // the old file's mode, as Salt's backup_minion copies it
    }

    @Test
    void replaceFalseOnlySetsPermissionsAndCreateFalseLeavesAMissingFileAlone() throws Exception {
        Path file = target.resolve("keep");
        Files.writeString(file, "keep me\n");
        io.jsalt.modules.builtin.file.FileModes.apply(file, 0600);
        assertThat(ManagedState.run(call(srv, true, file.toString(), "contents", "x", "replace", false, "mode", 644)))
                .isEqualTo(new StateResult(null, Map.of("mode", "0644"),
                        "File " + file + " will be updated with permissions 0644 from its current state of 0600"));
        assertThat(ManagedState.run(call(srv, false, file.toString(), "contents", "x", "replace", false, "mode", 644))
                .changes()).isEqualTo(Map.of("mode", "0644"));
        assertThat(Files.readString(file)).isEqualTo("keep me\n");
        Path missing = target.resolve("missing");
        assertThat(ManagedState.run(call(srv, false, missing.toString(), "contents", "x", "create", false)))
                .isEqualTo(StateResult.ok("File " + missing + " is not present and is not set for creation"));
        assertThat(Files.exists(missing)).isFalse();
    }

    @Test
    void testModePredictsOwnerModeAndDiffWithoutTouchingTheFile() throws Exception {
        Path file = target.resolve("conf");
        Files.writeString(file, "old\n");
        StateResult r = ManagedState.run(call(srv, true, file.toString(), "contents", "new", "user", "nobody", "mode", 600));
        assertThat(r).isEqualTo(StateResult.wouldChange(Map.of("diff", "--- \n+++ \n@@ -1 +1 @@\n-old\n+new\n",
                "user", "nobody", "mode", "0600"), "The file " + file + " is set to be changed" + NOTE));
        assertThat(Files.readString(file)).isEqualTo("old\n");
        assertThat(owner(file)).isEqualTo("root:root");
        assertThat(ManagedState.run(call(srv, true, file.toString(), "contents", "old")))
                .isEqualTo(StateResult.ok("The file " + file + " is in the correct state"));
    }

    @Test
    void makedirsGivesNewFoldersTheOwnerAndTheModeWithExecuteBits() throws Exception {
        Path file = target.resolve("a/b/f");
        assertThat(ManagedState.run(call(srv, false, file.toString(), "contents", "x", "makedirs", true, "mode", 640,
                "user", "nobody")).result()).isTrue();
        assertThat(mode(target.resolve("a"))).isEqualTo("0750");
        assertThat(owner(target.resolve("a/b"))).startsWith("nobody:");
    }

    @Test
    void contentsAreLinesEachEndedByANewLine() {
        assertThat(ManagedState.contentsText(List.of("one", "two\r\nthree"))).isEqualTo("one\ntwo\nthree\n");
        assertThat(ManagedState.contentsText("a\n\n")).isEqualTo("a\n\n");
        assertThat(ManagedState.contentsText(42)).isEqualTo("42\n");
    }

    @Test
    void contentsMayComeFromThePillarOrTheGrainsByPath() throws Exception {
        Map<String, Object> pillar = Map.of("ssh", Map.of("key", "-----BEGIN KEY-----\nabc\n"), "motd", "Welcome",
                "nums", List.of(1, 2), "empty", "");
        Path key = target.resolve("key");
        assertThat(ManagedState.run(FileCalls.withPillar(call(srv, false, key.toString(), "contents_pillar", "ssh:key",
                "mode", 600), pillar)).result()).isTrue();
        assertThat(Files.readString(key)).isEqualTo("-----BEGIN KEY-----\nabc\n");
        assertThat(mode(key)).isEqualTo("0600");
        Path slash = target.resolve("slash");
        ManagedState.run(FileCalls.withPillar(call(srv, false, slash.toString(), "contents_pillar", "ssh/key",
                "contents_delimiter", "/"), pillar));
        assertThat(Files.readString(slash)).isEqualTo("-----BEGIN KEY-----\nabc\n");
        Path os = target.resolve("os");
        ManagedState.run(call(srv, false, os.toString(), "contents_grains", "os"));
        assertThat(Files.readString(os)).isEqualTo("Debian\n");

        assertThat(ManagedState.run(FileCalls.withPillar(call(srv, false, target.resolve("x").toString(),
                "contents_pillar", "no:such"), pillar))).isEqualTo(StateResult.failed("Pillar no:such does not exist"));
        assertThat(ManagedState.run(FileCalls.withPillar(call(srv, false, target.resolve("x").toString(),
                "contents_pillar", "empty", "allow_empty", false), pillar))).isEqualTo(StateResult.failed(
                        "contents_pillar empty value would result in empty contents. Set allow_empty to True to allow "
                                + "the managed file to be empty."));
        assertThat(ManagedState.run(call(srv, false, target.resolve("x").toString(), "contents", "x",
                "contents_grains", "os"))).isEqualTo(StateResult.failed(
                        "Only one of 'contents', 'contents_pillar', and 'contents_grains' is permitted"));
        assertThat(Files.exists(target.resolve("x"))).isFalse();
    }

    @Test
    void aPillarValueOfNoneIsFoundAndWritesAnEmptyFileAsSaltDoes() throws Exception {
        Map<String, Object> pillar = new java.util.HashMap<>();
        pillar.put("k", null);
        Path out = target.resolve("out");
        StateResult result = ManagedState.run(FileCalls.withPillar(call(srv, false, out.toString(), "contents_pillar", "k"), pillar));
        // salt-call --local state.single file.managed /tmp/out contents_pillar=k, with pillar k: ~ (Salt 3006.8)
        assertThat(result.result()).isTrue();
        assertThat(result.comment()).isEqualTo("Empty file");
        assertThat(Files.readString(out)).isEmpty();
    }

    @Test
    void skipVerifyTakesALocalSourceWhateverItsHash() throws Exception {
        Path local = Files.writeString(target.resolve("local.txt"), "local src\n");
        Path file = target.resolve("copy");
        assertThat(ManagedState.run(call(srv, false, file.toString(), "source", local.toString(), "source_hash",
                "sha256=" + "a".repeat(64), "skip_verify", true)).result()).isTrue();
        assertThat(Files.readString(file)).isEqualTo("local src\n");
    }
}
