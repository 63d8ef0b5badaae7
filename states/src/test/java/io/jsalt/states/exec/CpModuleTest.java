package io.jsalt.states.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleContext;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.MasterFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** cp.* through the registry, against a file server over a folder; return values as salt-call 3006.8 gave them. */
class CpModuleTest {
    @TempDir
    Path fileRoot;
    @TempDir
    Path out;
    @TempDir
    Path cache;

    private ModuleRegistry registry;

    private MasterFiles folderServer() {
        return new MasterFiles() {
            @Override
            public Path cache(String saltUrl, String saltenv) {
                Path p = fileRoot.resolve(saltUrl.substring("salt://".length()));
                if (!Files.isRegularFile(p)) {
                    throw new CommandExecutionException("file " + saltUrl + " is not on the master");
                }
                try {
                    Path copy = cache.resolve(saltenv).resolve(saltUrl.substring("salt://".length()));
                    Files.createDirectories(copy.getParent());
                    return Files.write(copy, Files.readAllBytes(p));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            @Override
            public List<String> list(String prefix, String saltenv) {
                try (Stream<Path> all = Files.walk(fileRoot)) {
                    return all.filter(Files::isRegularFile).map(p -> fileRoot.relativize(p).toString())
                            .filter(p -> p.startsWith(prefix)).sorted().toList();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            @Override
            public Optional<FileHash> hash(String saltUrl, String saltenv) {
                Path p = fileRoot.resolve(saltUrl.substring("salt://".length()));
                return Files.isRegularFile(p) ? Optional.of(new FileHash(sha256(p), "sha256")) : Optional.empty();
            }
        };
    }

    private static String sha256(Path p) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @BeforeEach
    void registry() throws IOException {
        Files.createDirectories(fileRoot.resolve("web/sub"));
        Files.createDirectories(fileRoot.resolve("web2"));
        Files.writeString(fileRoot.resolve("web/app.j2"), "port={{ pillar.get('p', 80) }} id={{ grains.id }} x={{ x }}\n");
        Files.writeString(fileRoot.resolve("web/sub/s.txt"), "s\n");
        Files.writeString(fileRoot.resolve("web2/other.txt"), "o\n");
        MasterFiles files = folderServer();
        registry = ModuleRegistry.builtIn(new ModuleContext() {
            public String minionId() {
                return "m1";
            }

            public Map<String, Object> grains() {
                return Map.of("id", "m1");
            }

            public Map<String, Object> opts() {
                return Map.of("id", "m1");
            }

            public Path cachedir() {
                return cache;
            }

            @Override
            public MasterFiles files() {
                return files;
            }

            @Override
            public Map<String, Object> pillar() {
                return Map.of("p", 8080);
            }
        });
    }

    private Object call(String fun, Object... args) {
        CallResult r = registry.call(fun, List.of(args));
        return r.ret();
    }

    private static Map<String, Object> kw(Object... kv) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        m.put("__kwarg__", true);
        return m;
    }

    @Test
    void getFileCopiesOrAnswersAsSalt() throws IOException {
        Path dest = out.resolve("a/app.conf");

        assertThat(call("cp.get_file", "salt://web/app.j2", dest.toString())).isEqualTo(false);
        assertThat(call("cp.get_file", "salt://web/app.j2", dest.toString(), kw("makedirs", true))).isEqualTo(dest.toString());
        assertThat(Files.readString(dest)).startsWith("port={{");
        assertThat(call("cp.get_file", "salt://web/nothing", out.resolve("n").toString())).isEqualTo("");
        assertThat(call("cp.get_file", "salt://web/app.j2", out.toString())).isEqualTo(out.resolve("app.j2").toString());
    }

    @Test
    void getTemplateRendersWithGrainsPillarAndKeywords() throws IOException {
        Path dest = out.resolve("t.conf");
        assertThat(call("cp.get_template", "salt://web/app.j2", dest.toString(), kw("x", "y"))).isEqualTo(dest.toString());
        assertThat(Files.readString(dest)).isEqualTo("port=8080 id=m1 x=y\n");
        assertThat(call("cp.get_template", "salt://web/nothing", out.resolve("t2").toString())).isEqualTo("");
    }

    @Test
    void getDirCopiesTheFolderUnderDestByItsName() {
        assertThat(call("cp.get_dir", "salt://web", out.toString())).isEqualTo(List.of(
                out.resolve("web/app.j2").toString(), out.resolve("web/sub/s.txt").toString()));
        assertThat(Files.exists(out.resolve("web2"))).isFalse();
        assertThat(call("cp.get_dir", "salt://nothing", out.resolve("d2").toString())).isEqualTo(List.of());
    }

    @Test
    void cacheFileListMasterAndHashFileGiveSaltsValues() {
        assertThat((String) call("cp.cache_file", "salt://web/app.j2")).endsWith("base/web/app.j2");
        assertThat(call("cp.cache_file", "salt://web/nothing")).isEqualTo(false);
        assertThat(call("cp.list_master", kw("prefix", "web/"))).isEqualTo(List.of("web/app.j2", "web/sub/s.txt"));
        assertThat(call("cp.hash_file", "salt://web/app.j2")).isEqualTo(Map.of("hash_type", "sha256",
                "hsum", sha256(fileRoot.resolve("web/app.j2"))));
        assertThat(call("cp.hash_file", "salt://web/nothing")).isEqualTo("");
    }

    @Test
    void pathsThatLeaveTheirFolderOrAreNotSaltUrlsAreRefusedAndWriteNothing() {
        CallResult up = registry.call("cp.get_file", List.of("salt://../etc/passwd", out.resolve("p").toString()));
        CallResult local = registry.call("cp.get_file", List.of("/etc/passwd", out.resolve("p").toString()));
        CallResult relativeDest = registry.call("cp.get_file", List.of("salt://web/app.j2", "rel/p"));

        assertThat(up.retcode()).isNotZero();
        assertThat(up.ret().toString()).contains("unsafe file server path");
        assertThat(local.ret().toString()).contains("Unsupported path: /etc/passwd");
        assertThat(relativeDest.ret().toString()).contains("absolute path");
        assertThat(out.resolve("p")).doesNotExist();
    }
}
