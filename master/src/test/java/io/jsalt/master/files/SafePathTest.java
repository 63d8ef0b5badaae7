package io.jsalt.master.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.transport.message.UnsafePathException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SafePathTest {
    @TempDir
    Path tmp;
    Path root;
    Path outside;

    @BeforeEach
    void setUp() throws IOException {
        root = Files.createDirectories(tmp.resolve("srv/jsalt"));
        outside = Files.createDirectories(tmp.resolve("secret"));
        Files.writeString(outside.resolve("passwd"), "root:x:0:0");
        Files.createDirectories(root.resolve("_modules"));
        Files.writeString(root.resolve("_modules/a.jar"), "jar");
        Files.writeString(root.resolve("%2e%2e"), "a file named so");
    }

    @ParameterizedTest
    @ValueSource(strings = {"../secret/passwd", "_modules/../../secret/passwd", "..", "./_modules/a.jar",
            "_modules/./a.jar", "_modules//a.jar", "_modules/", "/etc/passwd", "//etc/passwd", "_modules\\a.jar",
            "..\\secret\\passwd", "_modules/a.jar\0.txt", ""})
    void refusesPathsThatAreNotPlainRelativeNames(String wire) {
        assertThatThrownBy(() -> SafePath.join(root, wire)).isInstanceOf(UnsafePathException.class);
    }

    @Test
    void refusesAHugePath() {
        assertThatThrownBy(() -> SafePath.join(root, "a/".repeat(3000) + "b")).isInstanceOf(UnsafePathException.class);
    }

    @Test
    void takesEncodedFormsLiterallyNeverAsParents() {
        assertThat(SafePath.join(root, "%2e%2e/%2e%2e/secret/passwd")).isEmpty();
        assertThat(SafePath.join(root, "%2e%2e")).contains(realOf(root.resolve("%2e%2e")));
        assertThat(SafePath.join(root, "..%2fsecret%2fpasswd")).isEmpty();
        assertThat(SafePath.join(root, "%252e%252e/secret")).isEmpty();
    }

    @Test
    void joinsAPlainRelativePathToTheRealFile() {
        assertThat(SafePath.join(root, "_modules/a.jar")).contains(realOf(root.resolve("_modules/a.jar")));
    }

    @Test
    void aMissingFileAFolderOrAMissingRootIsEmpty() {
        assertThat(SafePath.join(root, "_modules/b.jar")).isEmpty();
        assertThat(SafePath.join(root, "_modules")).isEmpty();
        assertThat(SafePath.join(tmp.resolve("nowhere"), "_modules/a.jar")).isEmpty();
    }

    @Test
    void refusesASymlinkInsideTheRootThatPointsOutside() throws IOException {
        Files.createSymbolicLink(root.resolve("escape"), outside.resolve("passwd"));
        Files.createSymbolicLink(root.resolve("outdir"), outside);

        assertThatThrownBy(() -> SafePath.join(root, "escape")).isInstanceOf(UnsafePathException.class);
        assertThatThrownBy(() -> SafePath.join(root, "outdir/passwd")).isInstanceOf(UnsafePathException.class);
    }

    @Test
    void aSymlinkThatStaysInsideTheRootIsFollowed() throws IOException {
        Files.createSymbolicLink(root.resolve("alias.jar"), root.resolve("_modules/a.jar"));

        assertThat(SafePath.join(root, "alias.jar")).contains(realOf(root.resolve("_modules/a.jar")));
    }

    @Test
    void aRootThatIsItselfASymlinkIsFine() throws IOException {
        Path linkedRoot = Files.createSymbolicLink(tmp.resolve("linked-root"), root);

        assertThat(SafePath.join(linkedRoot, "_modules/a.jar")).contains(realOf(root.resolve("_modules/a.jar")));
    }

    private static Path realOf(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
