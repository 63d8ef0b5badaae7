package io.jsalt.master.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** _file_hash and _file_list in a loop cost lookups: hashes by (path, size, mtime), listings for 2 s. */
class FileServerMemoTest {
    @TempDir
    Path root;
    @TempDir
    Path other;
    final AtomicLong clock = new AtomicLong(1_000_000_000L);
    FileServer server;

    @BeforeEach
    void setUp() throws Exception {
        Files.createDirectories(root.resolve("_modules"));
        Files.writeString(root.resolve("_modules/a.jar"), "aaaa");
        server = new FileServer(() -> Map.of("base", List.of(root)), () -> 4096, clock::get);
    }

    @Test
    void aFileIsHashedAgainOnlyWhenItsSizeOrModificationTimeChanges() throws Exception {
        Path file = root.resolve("_modules/a.jar");
        FileTime mtime = Files.getLastModifiedTime(file);
        String first = server.hash(server.find("base", "_modules/a.jar").orElseThrow());

        Files.writeString(file, "bbbb"); // same size, and the same mtime put back
        Files.setLastModifiedTime(file, mtime);
        assertThat(server.hash(server.find("base", "_modules/a.jar").orElseThrow()))
                .as("not read again: the remembered hash").isEqualTo(first);

        Files.setLastModifiedTime(file, FileTime.fromMillis(mtime.toMillis() + 5_000));
        assertThat(server.hash(server.find("base", "_modules/a.jar").orElseThrow())).isNotEqualTo(first);
    }

    @Test
    void aListingIsWalkedAgainOnlyAfterTwoSeconds() throws Exception {
        assertThat(server.list("base", "_modules")).containsExactly("_modules/a.jar");
        Files.writeString(root.resolve("_modules/b.jar"), "b");

        clock.addAndGet(FileServerMemo.LISTING_TTL.toNanos() - 1);
        assertThat(server.list("base", "")).as("within the TTL").containsExactly("_modules/a.jar");

        clock.addAndGet(1);
        assertThat(server.list("base", "_modules")).containsExactly("_modules/a.jar", "_modules/b.jar");
    }

    @Test
    void aReloadedFileRootsIsListedAfresh() throws Exception {
        Files.writeString(other.resolve("top.sls"), "x");
        AtomicReference<Map<String, List<Path>>> roots = new AtomicReference<>(Map.of("base", List.of(root)));
        FileServer reloading = new FileServer(roots::get, () -> 4096, clock::get);
        assertThat(reloading.list("base", "")).containsExactly("_modules/a.jar");

        roots.set(Map.of("base", List.of(other)));

        assertThat(reloading.list("base", "")).containsExactly("top.sls");
    }
}
