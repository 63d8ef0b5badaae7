package io.jsalt.minion.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The test file server refuses and normalises wire paths as the real master does, so tests cannot pass on paths it would refuse. */
class FakeFileServerTest {
    @TempDir
    Path root;

    private FakeFileServer server() throws Exception {
        Files.createDirectories(root.resolve("base/_modules"));
        Files.writeString(root.resolve("base/_modules/a.jar"), "jar");
        Files.writeString(root.resolve("secret"), "outside the env");
        Files.createSymbolicLink(root.resolve("base/_modules/escape.jar"), root.resolve("secret"));
        return new FakeFileServer(root, 1000);
    }

    private static Map<String, Object> load(String cmd, Object saltenv, String key, Object value) {
        Map<String, Object> load = new java.util.LinkedHashMap<>();
        load.put("cmd", cmd);
        load.put("saltenv", saltenv);
        load.put(key, value);
        load.put("loc", 0);
        return load;
    }

    @Test
    void aListPrefixLosesItsLeadingAndTrailingSlashes() throws Exception {
        FakeFileServer server = server();

        assertThat(server.answer(load("_file_list", "base", "prefix", "/_modules/")))
                .isEqualTo(server.answer(load("_file_list", "base", "prefix", "_modules")))
                .asList().contains("_modules/a.jar");
    }

    @Test
    void pathsThatLeaveTheEnvironmentAreMissing() throws Exception {
        FakeFileServer server = server();

        for (String path : List.of("../secret", "_modules/../../secret", "/etc/passwd", "_modules//a.jar",
                "./_modules/a.jar", "_modules/escape.jar")) {
            assertThat(server.answer(load("_file_hash", "base", "path", path))).as(path).isEqualTo("");
            assertThat(server.answer(load("_serve_file", "base", "path", path))).as(path)
                    .isEqualTo(Map.of("data", "", "dest", ""));
        }
        assertThat(server.answer(load("_file_hash", "base", "path", "_modules/a.jar"))).isInstanceOf(Map.class);
    }

    @Test
    void aSaltenvThatIsNotAPlainNameHoldsNothing() throws Exception {
        FakeFileServer server = server();

        assertThat(server.answer(load("_file_hash", "..", "path", "secret"))).isEqualTo("");
        assertThat(server.answer(load("_file_hash", "base/_modules", "path", "a.jar"))).isEqualTo("");
        assertThat(server.answer(load("_file_list", "..", "prefix", ""))).isEqualTo(List.of());
    }
}
