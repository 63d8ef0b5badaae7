package io.jsalt.states.builtin;

import static io.jsalt.states.TestCalls.call;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.builtin.file.FileModes;
import io.jsalt.states.run.StateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileStatesTest {
    @TempDir
    Path root;
    @TempDir
    Path target;

    @Test
    void managedWithContentsCreatesTheFileThenHasNothingToDo() throws Exception {
        Path file = target.resolve("motd");
        StateResult first = FileStates.managed(call(root, false, file.toString(), "contents", "hello", "mode", 640));
        assertThat(first.result()).isTrue();
        assertThat(first.changes()).isEqualTo(Map.of("diff", "New file", "mode", "0640"));
        assertThat(Files.readString(file)).isEqualTo("hello\n");
        assertThat(FileModes.format(FileModes.of(file))).isEqualTo("0640");

        StateResult second = FileStates.managed(call(root, false, file.toString(), "contents", "hello", "mode", "0640"));
        assertThat(second).isEqualTo(StateResult.ok("File " + file + " is in the correct state"));
    }

    @Test
    void managedShowsAUnifiedDiffWhenTheContentChanges() throws Exception {
        Path file = target.resolve("conf");
        Files.writeString(file, "a\nb\n");
        StateResult r = FileStates.managed(call(root, false, file.toString(), "contents", "a\nc"));
        assertThat(r.result()).isTrue();
        assertThat((String) r.changes().get("diff")).contains("-b\n", "+c\n");
        assertThat(Files.readString(file)).isEqualTo("a\nc\n");
    }

    @Test
    void diffsAreOfUtf8TextAndBinaryFilesAreNotDiffed() throws Exception {
        Path text = target.resolve("text");
        Files.writeString(text, "caf\u00e9\n");
        assertThat((String) FileStates.managed(call(root, false, text.toString(), "contents", "th\u00e9")).changes().get("diff"))
                .contains("-caf\u00e9", "+th\u00e9");
        Path binary = target.resolve("binary");
        Files.write(binary, new byte[] {0, 1, 2});
        assertThat(FileStates.managed(call(root, false, binary.toString(), "contents", "x")).changes())
                .containsEntry("diff", "Replace binary file");
    }

    @Test
    void testModePredictsChangesAndTouchesNothing() throws Exception {
        Path file = target.resolve("conf");
        Files.writeString(file, "old\n");
        StateResult changed = FileStates.managed(call(root, true, file.toString(), "contents", "new"));
        assertThat(changed.result()).isNull();
        assertThat((String) changed.changes().get("diff")).contains("-old", "+new");
        assertThat(Files.readString(file)).isEqualTo("old\n");

        Path absent = target.resolve("sub/new");
        StateResult created = FileStates.managed(call(root, true, absent.toString(), "contents", "x", "makedirs", true));
        assertThat(created.changes()).isEqualTo(Map.of("newfile", absent.toString()));
        assertThat(Files.exists(absent.getParent())).isFalse();
    }

    @Test
    void aSaltSourceRenderedAsJinjaGetsSaltsContextAndTheStatesContext() throws Exception {
        Files.createDirectories(root.resolve("web"));
        Files.writeString(root.resolve("web/app.conf.j2"), "os={{ grains.os }} port={{ port }} who={{ who }}\n");
        Path file = target.resolve("a/b/app.conf");
        StateResult r = FileStates.managed(call(root, false, file.toString(), "source", "salt://web/app.conf.j2",
                "template", "jinja", "makedirs", true, "defaults", Map.of("port", 80, "who", "d"),
                "context", Map.of("port", 8080)));
        assertThat(r.result()).as(r.comment()).isTrue();
        assertThat(Files.readString(file)).isEqualTo("os=Debian port=8080 who=d\n");
    }

    @Test
    void missingParentsOrSourcesOrRelativeNamesFail() {
        assertThat(FileStates.managed(call(root, false, target.resolve("no/dir/f").toString(), "contents", "x")))
                .isEqualTo(StateResult.failed("Parent directory not present"));
        assertThat(FileStates.managed(call(root, false, target.resolve("f").toString(), "source", "salt://nope")).comment())
                .isEqualTo("Source file salt://nope not found in saltenv 'base'");
        assertThat(FileStates.managed(call(root, false, target.resolve("f").toString(), "source", "salt://../etc/passwd"))
                .comment()).contains("unsafe file server path");
        assertThat(Files.exists(target.resolve("f"))).isFalse();
    }

    @Test
    void directoryCreatesAndThenReportsCorrectState() {
        Path dir = target.resolve("d1/d2");
        assertThat(FileStates.directory(call(root, true, dir.toString(), "makedirs", true)).result()).isNull();
        assertThat(Files.exists(dir)).isFalse();
        StateResult made = FileStates.directory(call(root, false, dir.toString(), "makedirs", true, "mode", 750));
        assertThat(made.changes()).isEqualTo(Map.of(dir.toString(), Map.of("directory", "new"))); // Salt 3006.8's shape
        assertThat(Files.isDirectory(dir)).isTrue();
        assertThat(FileStates.directory(call(root, false, dir.toString(), "mode", 750)).changes()).isEmpty();
    }

    @Test
    void absentRemovesFilesAndTreesOnlyOutsideTestMode() throws Exception {
        Path tree = target.resolve("tree");
        Files.createDirectories(tree.resolve("x"));
        Files.writeString(tree.resolve("x/f"), "1");
        assertThat(FileStates.absent(call(root, true, tree.toString())).result()).isNull();
        assertThat(Files.exists(tree.resolve("x/f"))).isTrue();
        StateResult removed = FileStates.absent(call(root, false, tree.toString()));
        assertThat(removed.changes()).isEqualTo(Map.of("removed", tree.toString()));
        assertThat(Files.exists(tree)).isFalse();
        assertThat(FileStates.absent(call(root, false, tree.toString())).comment()).isEqualTo("File " + tree + " is not present");
    }
}
