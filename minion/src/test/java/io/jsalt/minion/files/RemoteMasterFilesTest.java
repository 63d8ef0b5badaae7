package io.jsalt.minion.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.minion.testing.FakeFileServer;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.transport.TransportException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The minion's file client over the C4 wire, against a file server answering from a folder. */
class RemoteMasterFilesTest {
    @TempDir
    Path roots;
    @TempDir
    Path cachedir;

    private FakeFileServer server;
    private final List<Map<String, Object>> sent = new ArrayList<>();
    private RemoteMasterFiles files;
    private byte[] jar;

    @BeforeEach
    void serveAFile() throws Exception {
        jar = new byte[10_000];
        new Random(7).nextBytes(jar);
        Files.createDirectories(roots.resolve("base/_modules"));
        Files.write(roots.resolve("base/_modules/a.jar"), jar);
        Files.writeString(roots.resolve("base/top.sls"), "base: {}\n");
        server = new FakeFileServer(roots, 4096);
        files = new RemoteMasterFiles(load -> {
            sent.add(new LinkedHashMap<>(load));
            return server.answer(load);
        }, cachedir.resolve("files"));
    }

    @Test
    void fetchesAFileInChunksIntoTheCacheAndChecksItsHash() throws Exception {
        Path local = files.cache("salt://_modules/a.jar", "base");

        assertThat(local).isEqualTo(cachedir.resolve("files/base/_modules/a.jar").toRealPath());
        assertThat(Files.readAllBytes(local)).isEqualTo(jar);
        assertThat(server.chunksServed()).as("3 chunks of 4096 and the empty end").isEqualTo(4);
        assertThat(sent).extracting(l -> l.get("cmd")).containsExactly("_file_hash", "_serve_file", "_serve_file",
                "_serve_file", "_serve_file");
        assertThat(sent.get(1)).containsEntry("path", "_modules/a.jar").containsEntry("saltenv", "base").containsEntry("loc", 0L);
    }

    @Test
    void doesNotFetchAgainAFileWhoseCachedCopyHasTheMastersHash() {
        files.cache("salt://_modules/a.jar", "base");
        int served = server.chunksServed();

        files.cache("salt://_modules/a.jar", "base");

        assertThat(server.chunksServed()).isEqualTo(served);
    }

    @Test
    void keepsTheOldCopyWhenTheFileDoesNotMatchTheMastersHash() throws Exception {
        Path local = files.cache("salt://_modules/a.jar", "base");
        Function<Map<String, Object>, Object> lying = load -> "_file_hash".equals(load.get("cmd"))
                ? Map.of("hsum", "00".repeat(32), "hash_type", "sha256") : server.answer(load);
        RemoteMasterFiles liar = new RemoteMasterFiles(lying, cachedir.resolve("files"));

        assertThatThrownBy(() -> liar.cache("salt://_modules/a.jar", "base"))
                .isInstanceOf(CommandExecutionException.class).hasMessageContaining("hash mismatch");
        assertThat(Files.readAllBytes(local)).isEqualTo(jar);
        try (var left = Files.list(local.getParent())) {
            assertThat(left).as("no partial file is left").containsExactly(local);
        }
    }

    @Test
    void aFileTheMasterDoesNotHaveIsACommandError() {
        assertThatThrownBy(() -> files.cache("salt://_modules/missing.jar", "base"))
                .isInstanceOf(CommandExecutionException.class).hasMessageContaining("not on the master");
        assertThatThrownBy(() -> files.cache("salt://_modules/a.jar", "nosuchenv"))
                .isInstanceOf(CommandExecutionException.class);
    }

    @Test
    void listsTheFilesUnderAPrefix() {
        assertThat(files.list("_modules", "base")).containsExactly("_modules/a.jar");
        assertThat(files.list("", null)).containsExactly("_modules/a.jar", "top.sls");
        assertThat(sent.get(0)).containsEntry("cmd", "_file_list").containsEntry("prefix", "_modules").containsEntry("saltenv", "base");
    }

    @Test
    void aMasterThatCannotBeReachedIsACommandError() {
        RemoteMasterFiles offline = new RemoteMasterFiles(load -> {
            throw new TransportException("no answer from the master");
        }, cachedir.resolve("files"));

        assertThatThrownBy(() -> offline.list("_modules", "base")).isInstanceOf(CommandExecutionException.class)
                .hasMessageContaining("did not answer");
    }

    @Test
    void asksTheMasterForItsSaltenvsAndForAHashWithoutFetchingTheFile() throws Exception {
        Files.createDirectories(roots.resolve("dev"));

        assertThat(files.envs()).containsExactly("base", "dev");
        var hash = files.hash("salt://top.sls", "base").orElseThrow();
        assertThat(hash.hashType()).isEqualTo("sha256");
        assertThat(hash.hsum()).isEqualTo(RemoteMasterFiles.sha256(roots.resolve("base/top.sls")));
        assertThat(files.hash("salt://nothing.sls", "base")).isEmpty();
        assertThat(server.chunksServed()).isZero();
        assertThat(sent).extracting(l -> l.get("cmd")).containsExactly("_file_envs", "_file_hash", "_file_hash");
    }
}
