package io.jsalt.master.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.transport.message.UnsafePathException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file server and its AES commands, over folders in a temp dir. */
class FileServerTest {
    @TempDir
    Path tmp;
    Path first;
    Path second;
    Path outside;
    FileServerCommands commands;
    byte[] big;

    @BeforeEach
    void setUp() throws IOException {
        first = Files.createDirectories(tmp.resolve("first"));
        second = Files.createDirectories(tmp.resolve("second"));
        outside = Files.createDirectories(tmp.resolve("outside"));
        write(first, "_modules/a.jar", "a from first");
        write(second, "_modules/a.jar", "a from second");
        write(second, "_modules/b.jar", "b from second");
        write(second, "_modules_extra/c.txt", "c");
        write(first, "top.sls", "top");
        write(outside, "secret", "do not serve");
        big = new byte[10_000];
        new Random(42).nextBytes(big);
        Files.write(first.resolve("big.bin"), big);
        Map<String, List<Path>> roots = new LinkedHashMap<>();
        roots.put("base", List.of(first, second, tmp.resolve("not-there")));
        roots.put("dev", List.of(second));
        commands = new FileServerCommands(new FileServer(() -> roots, () -> 4096));
    }

    @Test
    void listsTheFilesUnderAPrefixOverEveryRootOfTheEnv() {
        assertThat(commands.fileList(load("saltenv", "base", "prefix", "_modules"), null))
                .isEqualTo(List.of("_modules/a.jar", "_modules/b.jar", "_modules_extra/c.txt"));
        assertThat(commands.fileList(load("saltenv", "base", "prefix", "/_modules/"), null))
                .isEqualTo(List.of("_modules/a.jar", "_modules/b.jar", "_modules_extra/c.txt"));
        assertThat(commands.fileList(load("saltenv", "base", "prefix", ""), null))
                .isEqualTo(List.of("_modules/a.jar", "_modules/b.jar", "_modules_extra/c.txt", "big.bin", "top.sls"));
        assertThat(commands.fileList(load("saltenv", "dev"), null))
                .isEqualTo(List.of("_modules/a.jar", "_modules/b.jar", "_modules_extra/c.txt"));
    }

    @Test
    void theFirstRootHoldingAPathServesIt() throws Exception {
        assertThat(commands.fileHash(load("saltenv", "base", "path", "_modules/a.jar"), null))
                .isEqualTo(Map.of("hsum", sha256("a from first".getBytes(StandardCharsets.UTF_8)), "hash_type", "sha256"));
        assertThat(commands.fileHash(load("saltenv", "base", "path", "_modules/b.jar"), null))
                .isEqualTo(Map.of("hsum", sha256("b from second".getBytes(StandardCharsets.UTF_8)), "hash_type", "sha256"));
        assertThat(serve("base", "_modules/a.jar", 0L)).containsEntry("dest", "_modules/a.jar");
        assertThat((byte[]) serve("base", "_modules/a.jar", 0L).get("data")).asString().isEqualTo("a from first");
        assertThat((byte[]) serve("dev", "_modules/a.jar", 0L).get("data")).asString().isEqualTo("a from second");
    }

    @Test
    void servesAFileInChunksOfTheBufferSizeAtEachLoc() {
        java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
        long loc = 0;
        int chunks = 0;
        while (true) {
            Map<String, Object> reply = serve("base", "big.bin", loc);
            byte[] data = (byte[]) reply.get("data");
            if (data.length == 0) {
                break;
            }
            assertThat(data.length).isLessThanOrEqualTo(4096);
            got.writeBytes(data);
            loc += data.length;
            chunks++;
        }
        assertThat(chunks).isEqualTo(3);
        assertThat(got.toByteArray()).isEqualTo(big);
        assertThat((byte[]) serve("base", "big.bin", 9000L).get("data")).hasSize(1000)
                .isEqualTo(java.util.Arrays.copyOfRange(big, 9000, 10_000));
        assertThat((byte[]) serve("base", "big.bin", 50_000L).get("data")).isEmpty();
    }

    @Test
    void aMissingFileIsSaltsEmptyAnswers() {
        assertThat(commands.fileHash(load("saltenv", "base", "path", "nope.sls"), null)).isEqualTo("");
        assertThat(serve("base", "nope.sls", 0L)).isEqualTo(Map.of("data", "", "dest", ""));
    }

    @Test
    void anUnknownSaltenvHoldsNothingAndIsNoError() {
        assertThat(commands.fileList(load("saltenv", "prod", "prefix", ""), null)).isEqualTo(List.of());
        assertThat(commands.fileList(load("prefix", ""), null)).isEqualTo(List.of());
        assertThat(commands.fileHash(load("saltenv", "prod", "path", "top.sls"), null)).isEqualTo("");
        assertThat(serve("prod", "top.sls", 0L)).isEqualTo(Map.of("data", "", "dest", ""));
        assertThat(commands.fileHash(load("path", "top.sls"), null)).isEqualTo("");
    }

    @Test
    void refusedPathsAreAnsweredAsMissingFiles() throws IOException {
        Files.createSymbolicLink(first.resolve("leak"), outside.resolve("secret"));
        for (String path : List.of("../outside/secret", "/etc/passwd", "leak", "_modules\\a.jar", "top.sls\0", "./top.sls")) {
            assertThat(commands.fileHash(load("saltenv", "base", "path", path), null)).as(path).isEqualTo("");
            assertThat(serve("base", path, 0L)).as(path).isEqualTo(Map.of("data", "", "dest", ""));
        }
    }

    @Test
    void aBadLocOrAPathThatIsNoStringIsAMissingFile() {
        assertThat(serve("base", "top.sls", -1L)).isEqualTo(Map.of("data", "", "dest", ""));
        assertThat(commands.serveFile(load("saltenv", "base", "path", "top.sls"), null)).isEqualTo(Map.of("data", "", "dest", ""));
        assertThat(commands.serveFile(load("saltenv", "base", "path", "top.sls", "loc", "0"), null))
                .isEqualTo(Map.of("data", "", "dest", ""));
        assertThat(commands.fileHash(load("saltenv", "base", "path", List.of("top.sls")), null)).isEqualTo("");
    }

    @Test
    void theListingLeavesOutSymlinksThatLeadOutsideTheRootAndFollowsThoseInside() throws IOException {
        Files.createSymbolicLink(first.resolve("leak"), outside.resolve("secret"));
        Files.createSymbolicLink(first.resolve("leakdir"), outside);
        Files.createSymbolicLink(first.resolve("alias.sls"), first.resolve("top.sls"));
        Files.createSymbolicLink(first.resolve("loop"), first); // a loop back to the root: listed once, no hang

        @SuppressWarnings("unchecked")
        List<String> all = (List<String>) commands.fileList(load("saltenv", "base", "prefix", ""), null);

        assertThat(all).contains("alias.sls", "top.sls").doesNotContain("leak", "leakdir/secret")
                .noneMatch(n -> n.startsWith("loop/"));
    }

    @Test
    void aRootThatIsASymlinkedFolderServesItsFiles() throws IOException {
        Path linked = Files.createSymbolicLink(tmp.resolve("linked"), second);
        FileServer server = new FileServer(() -> Map.of("base", List.of(linked)), () -> 10);

        assertThat(server.list("base", "_modules/")).containsExactly("_modules/a.jar", "_modules/b.jar", "_modules_extra/c.txt");
        assertThat(server.find("base", "_modules/b.jar")).isPresent();
        assertThatThrownBy(() -> server.find("base", "../first/top.sls")).isInstanceOf(UnsafePathException.class);
    }

    private Map<String, Object> serve(String saltenv, String path, Object loc) {
        @SuppressWarnings("unchecked")
        Map<String, Object> reply = (Map<String, Object>) commands.serveFile(load("saltenv", saltenv, "path", path, "loc", loc), null);
        return reply;
    }

    private static Map<String, Object> load(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    private static void write(Path root, String rel, String text) throws IOException {
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    private static String sha256(byte[] data) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    }

    @Test
    void namesItsSaltenvsSortedAsSaltsFileEnvs() {
        assertThat(commands.fileEnvs(Map.of("cmd", "_file_envs"), null)).isEqualTo(List.of("base", "dev"));
    }

    @Test
    void masterOptsGiveTheSaltenvsAndNodegroupsButNotTheFolders() {
        Map<String, List<Path>> roots = new LinkedHashMap<>();
        roots.put("dev", List.of(outside));
        roots.put("base", List.of(outside));
        MasterOptsCommand command = new MasterOptsCommand(new FileServer(() -> roots, () -> 10), () -> Map.of("webs", "web*"));

        @SuppressWarnings("unchecked")
        Map<String, Object> opts = (Map<String, Object>) command.masterOpts(Map.of("cmd", "_master_opts"), null);
        @SuppressWarnings("unchecked")
        Map<String, Object> envOnly = (Map<String, Object>) command.masterOpts(Map.of("cmd", "_master_opts", "env_only", true), null);

        assertThat(opts.get("file_roots")).isEqualTo(Map.of("base", List.of(), "dev", List.of()));
        assertThat(opts).containsEntry("nodegroups", Map.of("webs", "web*")).containsEntry("top_file_merging_strategy", "merge");
        assertThat(opts.toString()).doesNotContain(outside.toString());
        assertThat(envOnly).containsOnlyKeys("file_roots", "top_file_merging_strategy", "env_order", "default_top");
        assertThat(command.masterTops(Map.of("cmd", "_master_tops", "id", "m1"), null)).isEqualTo(Map.of());
    }
}
