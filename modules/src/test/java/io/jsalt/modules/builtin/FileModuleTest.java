package io.jsalt.modules.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileModuleTest {

    private final ModuleRegistry registry = ModuleRegistry.builder(SimpleModuleContext.builder().minionId("f").build())
            .addModule(new FileModule()).addModule(new FileAttributesModule()).addModule(new FileContentModule())
            .build();

    @TempDir
    Path dir;

    private CallResult call(String fun, Object... args) {
        return registry.call(fun, Arrays.asList(args));
    }

    static Map<String, Object> kwargs(Object... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("__kwarg__", true);
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], pairs[i + 1]);
        }
        return map;
    }

    private String path(String name) {
        return dir.resolve(name).toString();
    }

    @Test
    void writeThenReadGivesTheLinesBackWithNewlines() {
        CallResult written = call("file.write", path("a.txt"), "one", "two");

        assertThat(written).isEqualTo(CallResult.ok("Wrote 2 lines to \"" + path("a.txt") + "\""));
        assertThat(call("file.read", path("a.txt")).ret()).isEqualTo("one\ntwo\n");
    }

    @Test
    void relativePathsAreRefusedWithSaltsMessage() {
        for (String fun : List.of("file.read", "file.remove", "file.file_exists", "file.get_hash", "file.line_count")) {
            CallResult result = call(fun, "etc/passwd");
            assertThat(result.retcode()).as(fun).isEqualTo(1);
            assertThat(result.ret()).as(fun).isEqualTo("ERROR: File path must be absolute: etc/passwd");
        }
    }

    @Test
    void writeKeepsTheModeOfAnExistingFileAndLeavesNoTemporaryFiles() throws IOException {
        Path file = dir.resolve("secret");
        Files.writeString(file, "old\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));

        call("file.write", file.toString(), "new");

        assertThat(Files.readString(file)).isEqualTo("new\n");
        assertThat(call("file.get_mode", file.toString()).ret()).isEqualTo("0600");
        try (var entries = Files.list(dir)) {
            assertThat(entries.map(p -> p.getFileName().toString())).containsExactly("secret");
        }
    }

    @Test
    void writeRefusesASymlinkUnlessAskedToFollowIt() throws IOException {
        Path target = Files.writeString(dir.resolve("target"), "keep\n");
        Path link = Files.createSymbolicLink(dir.resolve("link"), target);

        CallResult refused = call("file.write", link.toString(), "evil");
        assertThat(refused.retcode()).isEqualTo(1);
        assertThat((String) refused.ret()).contains("refusing to follow the symbolic link").contains("follow_symlinks");
        assertThat(Files.readString(target)).isEqualTo("keep\n");

        assertThat(call("file.write", link.toString(), "chosen", kwargs("follow_symlinks", true)).success()).isTrue();
        assertThat(Files.readString(target)).isEqualTo("chosen\n");
        assertThat(Files.isSymbolicLink(link)).isTrue();
    }

    @Test
    void appendEndsAnUnterminatedLastLineFirst() throws IOException {
        Path file = Files.writeString(dir.resolve("f"), "no newline");

        assertThat(call("file.append", file.toString(), "x", "y").ret()).isEqualTo("Wrote 2 lines to \"" + file + "\"");
        assertThat(Files.readString(file)).isEqualTo("no newline\nx\ny\n");
    }

    @Test
    void removeDeletesTheLinkNotItsTarget() throws IOException {
        Path target = Files.createDirectory(dir.resolve("real"));
        Files.writeString(target.resolve("inside"), "x");
        Path link = Files.createSymbolicLink(dir.resolve("link"), target);

        assertThat(call("file.remove", link.toString()).ret()).isEqualTo(true);
        assertThat(Files.exists(target.resolve("inside"))).isTrue();
        assertThat(call("file.remove", target.toString()).ret()).isEqualTo(true);
        assertThat(Files.exists(target)).isFalse();
        assertThat(call("file.remove", target.toString()).ret()).isEqualTo(false);
    }

    @Test
    void touchCreatesAFileAndSetsItsTimes() {
        assertThat(call("file.touch", path("t"), kwargs("atime", 1000, "mtime", 2000)).ret()).isEqualTo(true);

        Map<?, ?> stats = (Map<?, ?>) call("file.stats", path("t")).ret();
        assertThat(stats.get("mtime")).isEqualTo(2000.0);
        assertThat(stats.get("atime")).isEqualTo(1000.0);
        assertThat(stats.get("size")).isEqualTo(0L);
    }

    @Test
    void mkdirCreatesParentsWithTheGivenMode() {
        String deep = path("a/b/c");

        assertThat(call("file.mkdir", deep, kwargs("mode", "0750")).ret()).isEqualTo(true);
        assertThat(call("file.directory_exists", deep).ret()).isEqualTo(true);
        assertThat(call("file.get_mode", path("a/b")).ret()).isEqualTo("0750");
        assertThat(call("file.makedirs", path("a/b/c/file")).ret()).isEqualTo("Directory '" + deep + "' already exists");
        assertThat(call("file.makedirs", dir + "/x/y/").ret()).isNull();
        assertThat(Files.isDirectory(dir.resolve("x/y"))).isTrue();
    }

    @Test
    void copyRefusesASymlinkedDestinationAndCopiesTreesOnlyWithRecurse() throws IOException {
        Path src = Files.writeString(dir.resolve("src"), "data");
        Path victim = Files.writeString(dir.resolve("victim"), "safe");
        Path link = Files.createSymbolicLink(dir.resolve("dst-link"), victim);

        assertThat((String) call("file.copy", src.toString(), link.toString()).ret()).contains("symbolic link");
        assertThat(Files.readString(victim)).isEqualTo("safe");

        Files.setPosixFilePermissions(src, PosixFilePermissions.fromString("rwxr-x---"));
        assertThat(call("file.copy", src.toString(), path("dst")).ret()).isEqualTo(true);
        assertThat(Files.readString(dir.resolve("dst"))).isEqualTo("data");
        assertThat(call("file.get_mode", path("dst")).ret()).isEqualTo("0750");

        Files.createDirectories(dir.resolve("tree/sub"));
        Files.writeString(dir.resolve("tree/sub/f"), "deep");
        assertThat((String) call("file.copy", path("tree"), path("tree2")).ret()).contains("recurse=True");
        assertThat(call("file.copy", path("tree"), path("tree2"), kwargs("recurse", true)).ret()).isEqualTo(true);
        assertThat(Files.readString(dir.resolve("tree2/sub/f"))).isEqualTo("deep");
    }

    @Test
    void renameMovesAndReportsAMissingSource() {
        call("file.write", path("old"), "x");

        assertThat(call("file.rename", path("old"), path("new")).ret()).isEqualTo(true);
        assertThat(call("file.file_exists", path("new")).ret()).isEqualTo(true);
        assertThat(call("file.exists", path("old")).ret()).isEqualTo(false);
        assertThat(call("file.rename", path("old"), path("x")).ret()).isEqualTo("ERROR: Path not found: " + path("old"));
    }

    @Test
    void statsUsesSaltsKeysAndDescribesALinkWhenNotFollowing() throws IOException {
        Path file = Files.writeString(dir.resolve("s"), "12345");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        Path link = Files.createSymbolicLink(dir.resolve("l"), file);

        Map<?, ?> stats = (Map<?, ?>) call("file.stats", file.toString()).ret();
        assertThat(stats.keySet().stream().map(String::valueOf).toList()).containsExactlyInAnyOrder("inode", "uid", "gid", "group", "user", "atime", "mtime",
                "ctime", "size", "mode", "type", "target");
        assertThat(stats.get("mode")).isEqualTo("0640");
        assertThat(stats.get("size")).isEqualTo(5L);
        assertThat(stats.get("type")).isEqualTo("file");
        assertThat(stats.get("user")).isEqualTo(System.getProperty("user.name"));

        Map<?, ?> linkStats = (Map<?, ?>) call("file.stat", link.toString(), kwargs("follow_symlinks", false)).ret();
        assertThat(linkStats.get("type")).isEqualTo("link");
        assertThat(linkStats.get("target")).isEqualTo(file.toRealPath().toString());
        assertThat(call("file.stats", path("nothing"))).isEqualTo(CallResult.failed("ERROR: Path not found: "
                + path("nothing"), 1));
        assertThat(call("file.get_mode", path("nothing")).ret()).isEqualTo("ERROR: Path not found: " + path("nothing"));
        assertThat(((Map<?, ?>) call("file.stats", "/dev/null").ret()).get("type")).isEqualTo("char");
        assertThat(((Map<?, ?>) call("file.stats", dir.toString()).ret()).get("type")).isEqualTo("dir");
    }

    @Test
    void getHashMatchesKnownDigests() throws IOException {
        Path file = Files.writeString(dir.resolve("h"), "abc");

        assertThat(call("file.get_hash", file.toString()).ret())
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertThat(call("file.get_hash", file.toString(), "md5").ret()).isEqualTo("900150983cd24fb0d6963f7d28e17f72");
        assertThat(call("file.get_hash", file.toString(), "sha1").ret())
                .isEqualTo("a9993e364706816aba3e25717850c26c9cd0d89d");
        assertThat(call("file.get_hash", file.toString(), "sha512").ret().toString()).startsWith("ddaf35a193617aba");
        assertThat(call("file.get_hash", file.toString(), "crc").ret().toString()).startsWith("ERROR: Invalid hash type");
    }

    @Test
    void setModeAcceptsSaltsSpellingsAndRefusesLinks() throws IOException {
        Path file = Files.writeString(dir.resolve("m"), "");
        Path link = Files.createSymbolicLink(dir.resolve("ml"), file);

        assertThat(call("file.set_mode", file.toString(), 755).ret()).isEqualTo("0755");
        assertThat(call("file.set_mode", file.toString(), "0600").ret()).isEqualTo("0600");
        assertThat(call("file.set_mode", file.toString(), "4755").ret()).isEqualTo("4755");
        assertThat(call("file.set_mode", link.toString(), "0644").retcode()).isEqualTo(1);
        assertThat(call("file.set_mode", file.toString(), "rwx").ret().toString()).startsWith("ERROR: Invalid mode");
        assertThat(call("file.set_mode", path("gone"), "0644").ret()).isEqualTo("ERROR: " + path("gone") + ": File not found");
    }

    @Test
    void chownChangesOwnerAndNamesAnUnknownUser() throws IOException {
        Path file = Files.writeString(dir.resolve("o"), "");
        String me = System.getProperty("user.name");

        assertThat(call("file.chown", file.toString(), me, "")).isEqualTo(CallResult.ok(null));
        CallResult unknown = call("file.chown", file.toString(), "no-such-user-jsalt", "");
        assertThat(unknown.retcode()).isEqualTo(1);
        assertThat(unknown.ret()).isEqualTo("ERROR: User does not exist: no-such-user-jsalt");
    }

    @Test
    void findFiltersByNameTypeAndDepthWithoutFollowingLinks() throws IOException {
        Files.createDirectories(dir.resolve("a/b"));
        Files.writeString(dir.resolve("top.conf"), "");
        Files.writeString(dir.resolve("a/mid.conf"), "");
        Files.writeString(dir.resolve("a/b/deep.conf"), "");
        Files.writeString(dir.resolve("a/b/DEEP.TXT"), "");
        Files.createSymbolicLink(dir.resolve("loop"), dir);

        assertThat(call("file.find", dir.toString(), kwargs("name", "*.conf")).ret())
                .isEqualTo(List.of(path("a/b/deep.conf"), path("a/mid.conf"), path("top.conf")));
        assertThat(call("file.find", dir.toString(), kwargs("name", "*.conf", "maxdepth", 1)).ret())
                .isEqualTo(List.of(path("top.conf")));
        assertThat(call("file.find", dir.toString(), kwargs("type", "d", "mindepth", 1)).ret())
                .isEqualTo(List.of(path("a"), path("a/b")));
        assertThat(call("file.find", dir.toString(), kwargs("type", "l")).ret()).isEqualTo(List.of(path("loop")));
        assertThat(call("file.find", dir.toString(), kwargs("iname", "deep.txt")).ret())
                .isEqualTo(List.of(path("a/b/DEEP.TXT")));
        assertThat(call("file.find", dir.toString(), kwargs("size", "+1k")).ret().toString())
                .startsWith("ERROR: Unsupported find criterion 'size'");
    }

    @Test
    void replaceReturnsSaltsDiffKeepsABackupAndTheMode() throws IOException {
        Path file = Files.writeString(dir.resolve("conf"), "LogLevel warn\nPort 22\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));

        CallResult result = call("file.replace", file.toString(), "^LogLevel (\\w+)$", "LogLevel info # was \\1");

        assertThat(result.ret()).isEqualTo("--- \n+++ \n@@ -1,2 +1,2 @@\n-LogLevel warn\n+LogLevel info # was warn\n Port 22\n");
        assertThat(Files.readString(file)).isEqualTo("LogLevel info # was warn\nPort 22\n");
        assertThat(Files.readString(dir.resolve("conf.bak"))).isEqualTo("LogLevel warn\nPort 22\n");
        assertThat(call("file.get_mode", path("conf.bak")).ret()).isEqualTo("0600");
        assertThat(call("file.get_mode", file.toString()).ret()).isEqualTo("0600");
    }

    @Test
    void replaceHonoursCountDryRunAndShowChanges() throws IOException {
        Path file = Files.writeString(dir.resolve("c"), "a a a\n");

        assertThat(call("file.replace", file.toString(), "a", "b", kwargs("count", 2, "show_changes", false,
                "backup", false)).ret()).isEqualTo(true);
        assertThat(Files.readString(file)).isEqualTo("b b a\n");
        assertThat(Files.exists(dir.resolve("c.bak"))).isFalse();
        assertThat(call("file.replace", file.toString(), "a", "z", kwargs("dry_run", true, "show_changes", false)).ret())
                .isEqualTo(true);
        assertThat(Files.readString(file)).isEqualTo("b b a\n");
        assertThat(call("file.replace", file.toString(), "nothing", "z").ret()).isEqualTo("");
    }

    @Test
    void replaceAppendsWhenNotFoundAndRefusesSymlinks() throws IOException {
        Path file = Files.writeString(dir.resolve("p"), "x=1");
        Path link = Files.createSymbolicLink(dir.resolve("pl"), file);

        call("file.replace", file.toString(), "^y=.*$", "y=2", kwargs("append_if_not_found", true, "backup", false));
        assertThat(Files.readString(file)).isEqualTo("x=1\ny=2\n");
        assertThat((String) call("file.replace", link.toString(), "x", "z").ret()).contains("symbolic link");
        assertThat(call("file.replace", path("none"), "x", "z", kwargs("ignore_if_missing", true)).ret()).isEqualTo(false);
    }

    @Test
    void searchAndLineCountLookInsideTheFile() throws IOException {
        Path file = Files.writeString(dir.resolve("s"), "alpha\nBeta\ngamma");

        assertThat(call("file.search", file.toString(), "^beta$").ret()).isEqualTo(false);
        assertThat(call("file.search", file.toString(), "^beta$", kwargs("flags", List.of("IGNORECASE", "MULTILINE")))
                .ret()).isEqualTo(true);
        assertThat(call("file.search", file.toString(), "(?P<word>gam)ma").ret()).isEqualTo(true);
        assertThat(call("file.line_count", file.toString()).ret()).isEqualTo(3L);
        Files.writeString(file, "one\ntwo\n");
        assertThat(call("file.line_count", file.toString()).ret()).isEqualTo(2L);
        assertThat(call("file.search", file.toString(), "(unclosed").ret().toString())
                .startsWith("ERROR: Invalid regular expression");
    }

    @Test
    void readingAMissingFileIsAClearError() {
        CallResult result = call("file.read", path("missing"));

        assertThat(result.retcode()).isEqualTo(1);
        assertThat(result.ret()).isEqualTo("ERROR: Unable to read " + path("missing") + ": No such file or directory: "
                + path("missing"));
    }
}
