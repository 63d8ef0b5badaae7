package io.jsalt.minion.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.transport.message.UnsafePathException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every path from the master goes through one validated join into the file cache. */
class CachePathTest {
    @TempDir
    Path cache;

    @ParameterizedTest
    @ValueSource(strings = {"../etc/passwd", "a/../../b", "/etc/passwd", "a//b", "a/./b", "a/", "", "a\\b", "a\u0000b", ".", ".."})
    void refusesPathsThatAreNotPlainRelativeOnes(String path) {
        assertThatThrownBy(() -> CachePath.resolveForWrite(cache, path)).isInstanceOf(UnsafePathException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"..", ".hidden", "a/b", "", "base env"})
    void refusesSaltenvsThatAreNotNames(String saltenv) {
        assertThatThrownBy(() -> CachePath.requireSaltenv(saltenv)).isInstanceOf(UnsafePathException.class);
    }

    @Test
    void placesAPlainPathInsideTheCacheAndCreatesItsFolders() throws Exception {
        Path resolved = CachePath.resolveForWrite(cache, "_modules/sub/a.jar");

        assertThat(resolved.startsWith(cache.toRealPath())).isTrue();
        assertThat(resolved.getFileName()).hasToString("a.jar");
        assertThat(resolved.getParent()).isDirectory();
    }

    @Test
    void refusesAPathThatLeavesTheCacheThroughASymbolicLink(@TempDir Path elsewhere) throws Exception {
        Files.createSymbolicLink(cache.resolve("_modules"), elsewhere);

        assertThatThrownBy(() -> CachePath.resolveForWrite(cache, "_modules/a.jar"))
                .isInstanceOf(UnsafePathException.class).hasMessageContaining("through a link");
    }

    @Test
    void refusesToWriteThroughALinkPlantedAtTheFileItself(@TempDir Path elsewhere) throws Exception {
        Files.createDirectories(cache.resolve("_modules"));
        Files.createSymbolicLink(cache.resolve("_modules/a.jar"), elsewhere.resolve("target"));

        assertThatThrownBy(() -> CachePath.resolveForWrite(cache, "_modules/a.jar"))
                .isInstanceOf(UnsafePathException.class).hasMessageContaining("not a regular file");
    }

    @Test
    void readsTheSaltenvOfASaltUrlQuery() {
        assertThat(SaltUrl.parse("salt://_modules/a.jar?saltenv=dev", "base")).isEqualTo(new SaltUrl("_modules/a.jar", "dev"));
        assertThat(SaltUrl.parse("salt://top.sls", null)).isEqualTo(new SaltUrl("top.sls", "base"));
        assertThatThrownBy(() -> SaltUrl.parse("salt://../x", "base")).hasMessageContaining("bad file URL");
    }
}
