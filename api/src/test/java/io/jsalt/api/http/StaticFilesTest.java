package io.jsalt.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.api.ApiException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code static} folder's lookup by itself, with the request paths Jetty would never hand over (it
 * removes or refuses dot segments first): whatever arrives, nothing outside the folder is found.
 */
class StaticFilesTest {
    @TempDir
    Path root;
    private Path dir;
    private StaticFiles files;

    @BeforeEach
    void folder() throws Exception {
        dir = Files.createDirectories(root.resolve("www"));
        Files.writeString(dir.resolve("site.css"), "body {}");
        Files.createDirectories(dir.resolve("js"));
        Files.writeString(dir.resolve("js/main.js"), "export {};");
        Files.writeString(root.resolve("secret.txt"), "not for the web");
        files = new StaticFiles("/static", dir);
    }

    @Test
    void findsAFileOfTheFolderWithItsType() {
        StaticFiles.Found css = files.find("/static/site.css").orElseThrow();
        assertThat(css.file()).isEqualTo(realPath(dir.resolve("site.css")));
        assertThat(css.contentType()).isEqualTo("text/css;charset=utf-8");
        assertThat(files.find("/static/js/main.js").orElseThrow().contentType()).startsWith("text/javascript");
    }

    @Test
    void leavesPathsOutsideStaticPathToTheApi() {
        assertThat(files.find("/login")).isEmpty();
        assertThat(files.find("/staticky/site.css")).isEmpty();
        assertThat(new StaticFiles("/static", null).find("/static/site.css")).isEmpty();
    }

    @Test
    void refusesDotDotWithA403AndFindsNothingOutside() {
        for (String path : new String[] {"/static/../secret.txt", "/static/js/../../secret.txt", "/static/./site.css",
                "/static//site.css", "/static/js/..\\..\\secret.txt"}) {
            assertThatThrownBy(() -> files.find(path)).as(path).isInstanceOf(ApiException.class)
                    .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(403));
        }
    }

    @Test
    void refusesASymlinkThatLeadsOutOfTheFolder() throws Exception {
        Files.createSymbolicLink(dir.resolve("escape.txt"), root.resolve("secret.txt"));
        Files.createSymbolicLink(dir.resolve("out"), root);
        assertThatThrownBy(() -> files.find("/static/escape.txt")).isInstanceOf(ApiException.class)
                .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(403));
        assertThatThrownBy(() -> files.find("/static/out/secret.txt")).isInstanceOf(ApiException.class)
                .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(403));
        // a symlink that stays inside is followed
        Files.createSymbolicLink(dir.resolve("alias.css"), dir.resolve("site.css"));
        assertThat(files.find("/static/alias.css").orElseThrow().file()).isEqualTo(realPath(dir.resolve("site.css")));
    }

    @Test
    void aMissingFileAFolderOrAnUnservedTypeIsA404() throws Exception {
        Files.writeString(dir.resolve("backup.tar"), "x");
        Files.createDirectories(dir.resolve("docs.json"));
        for (String path : new String[] {"/static/none.css", "/static/backup.tar", "/static/js", "/static", "/static/",
                "/static/docs.json", "/static/.css"}) {
            assertThatThrownBy(() -> files.find(path)).as(path).isInstanceOf(ApiException.class)
                    .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(404));
        }
    }

    private static Path realPath(Path p) {
        try {
            return p.toRealPath();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
