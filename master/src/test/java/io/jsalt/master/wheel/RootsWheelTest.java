package io.jsalt.master.wheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.master.runner.InvalidRunnerArgumentsException;
import io.jsalt.master.runner.RunnerFunction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Salt's wheel {@code file_roots} (and so {@code pillar_roots}) on real folders: answers as Salt's, paths held to their roots. */
class RootsWheelTest {
    @TempDir
    Path tmp;
    Path base;
    Path dev1;
    Path dev2;
    Path outside;
    WheelFunctions wheel;

    @BeforeEach
    void setUp() throws IOException {
        base = Files.createDirectories(tmp.resolve("srv/salt"));
        dev1 = Files.createDirectories(tmp.resolve("srv/dev"));
        dev2 = tmp.resolve("srv/dev2"); // configured, never created
        outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(base.resolve("top.sls"), "base:\n  '*': [web]\n");
        Files.createDirectories(base.resolve("web/files"));
        Files.writeString(base.resolve("web/init.sls"), "nginx: pkg.installed\n");
        Files.write(base.resolve("web/files/logo.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 0, 1});
        Files.writeString(dev1.resolve("top.sls"), "dev: {}\n");
        Files.writeString(outside.resolve("secret"), "root:x:0:0\n");
        Map<String, List<Path>> roots = new LinkedHashMap<>();
        roots.put("base", List.of(base));
        roots.put("dev", List.of(dev1, dev2));
        wheel = new WheelFunctions(List.of(new RootsWheel("file_roots", () -> roots)));
    }

    @Test
    void listEnvNestsFoldersAndMarksFilesAsSaltDoes() {
        assertThat(call("file_roots.list_env", Map.of())).isEqualTo(Map.of(base.toString(), Map.of(
                "top.sls", "f", "web", Map.of("init.sls", "f", "files", Map.of("logo.png", "f")))));
        assertThat(call("file_roots.list_env", Map.of("saltenv", "dev")))
                .isEqualTo(Map.of(dev1.toString(), Map.of("top.sls", "f"), dev2.toString(), Map.of()));
        assertThat(call("file_roots.list_env", Map.of("saltenv", "nope"))).isEqualTo(Map.of());
    }

    @Test
    void listEnvDoesNotFollowASymlinkedFolderOutOfTheRoot() throws IOException {
        Files.createSymbolicLink(base.resolve("escape"), outside);
        Files.createSymbolicLink(base.resolve("secret-link"), outside.resolve("secret"));

        Map<?, ?> tree = (Map<?, ?>) ((Map<?, ?>) call("file_roots.list_env", Map.of())).get(base.toString());

        assertThat(tree.get("escape")).isEqualTo(Map.of()); // shown, as os.walk shows it, but not entered
        assertThat(tree.get("secret-link")).isEqualTo("f");
    }

    @Test
    void listRootsGivesEverySaltenvAsAListOfItsListEnv() {
        Map<?, ?> all = (Map<?, ?>) call("file_roots.list_roots", Map.of());

        assertThat(List.<Object>copyOf(all.keySet())).containsExactly("base", "dev");
        assertThat(all.get("dev")).isEqualTo(List.of(call("file_roots.list_env", Map.of("saltenv", "dev"))));
    }

    @Test
    void readGivesTheTextOfEachRootHoldingThePathAndSkipsBinaryFiles() {
        assertThat(call("file_roots.read", Map.of("path", "web/init.sls")))
                .isEqualTo(List.of(Map.of(base + "/web/init.sls", "nginx: pkg.installed\n")));
        assertThat(call("file_roots.read", Map.of("path", "web/files/logo.png"))).isEqualTo(List.of());
        assertThat(call("file_roots.find", Map.of("path", "web/files/logo.png")))
                .isEqualTo(List.of(Map.of(base + "/web/files/logo.png", "bin")));
        assertThat(call("file_roots.read", Map.of("path", "top.sls", "saltenv", "dev")))
                .isEqualTo(List.of(Map.of(dev1 + "/top.sls", "dev: {}\n")));
    }

    @Test
    void readFindsNothingOutsideTheRootByDotsAbsolutePathsOrSymlinks() throws IOException {
        Files.createSymbolicLink(base.resolve("escape"), outside);
        Files.createSymbolicLink(base.resolve("secret-link"), outside.resolve("secret"));
        for (String path : List.of("../../outside/secret", "web/../../../outside/secret", outside.resolve("secret").toString(),
                "escape/secret", "secret-link", "", "web\\..\\..\\secret")) {
            assertThat(call("file_roots.read", Map.of("path", path))).as(path).isEqualTo(List.of());
            assertThat(call("file_roots.find", Map.of("path", path))).as(path).isEqualTo(List.of());
        }
    }

    @Test
    void writeCreatesTheFileAndItsFoldersInTheChosenRootAndSaysSoInSaltsWords() throws IOException {
        assertThat(call("file_roots.write", Map.of("data", "db: {}\n", "path", "db/init.sls")))
                .isEqualTo("Wrote data to file " + base + "/db/init.sls");
        assertThat(base.resolve("db/init.sls")).hasContent("db: {}\n");

        assertThat(call("file_roots.write", Map.of("data", "second\n", "path", "top.sls", "saltenv", "dev", "index", 1)))
                .isEqualTo("Wrote data to file " + dev2 + "/top.sls");
        assertThat(dev2.resolve("top.sls")).hasContent("second\n");

        assertThat(call("file_roots.write", Map.of("data", "short", "path", "top.sls"))).asString().startsWith("Wrote");
        assertThat(base.resolve("top.sls")).hasContent("short"); // replaced, not appended
    }

    @Test
    void writeRefusesPathsLeavingTheRootAndWritesNothing() throws IOException {
        assertThat(call("file_roots.write", Map.of("data", "x", "path", "../../outside/evil"))).isEqualTo("Invalid path: ../../outside/evil");
        assertThat(call("file_roots.write", Map.of("data", "x", "path", "web/../../evil"))).isEqualTo("Invalid path: web/../../evil");
        String absolute = outside.resolve("evil").toString();
        assertThat(call("file_roots.write", Map.of("data", "x", "path", absolute)))
                .isEqualTo("The path passed in " + absolute + " is not relative to the environment base");
        assertThat(outside).isDirectoryNotContaining(p -> p.getFileName().toString().equals("evil"));
        assertThat(tmp.resolve("srv/evil")).doesNotExist();
    }

    @Test
    void writeDoesNotFollowASymlinkedFolderOrFileOutOfTheRoot() throws IOException {
        Files.createSymbolicLink(base.resolve("escape"), outside);
        Files.createSymbolicLink(base.resolve("secret-link"), outside.resolve("secret"));
        Files.createSymbolicLink(base.resolve("inner-link"), base.resolve("top.sls"));

        assertThat(call("file_roots.write", Map.of("data", "x", "path", "escape/evil"))).isEqualTo("Invalid path: escape/evil");
        assertThat(call("file_roots.write", Map.of("data", "x", "path", "escape/deeper/evil"))).isEqualTo("Invalid path: escape/deeper/evil");
        assertThat(call("file_roots.write", Map.of("data", "x", "path", "secret-link"))).isEqualTo("Invalid path: secret-link");
        assertThat(call("file_roots.write", Map.of("data", "x", "path", "inner-link"))).isEqualTo("Invalid path: inner-link");

        assertThat(outside.resolve("evil")).doesNotExist();
        assertThat(outside.resolve("deeper")).doesNotExist();
        assertThat(outside.resolve("secret")).hasContent("root:x:0:0\n");
        assertThat(base.resolve("top.sls")).hasContent("base:\n  '*': [web]\n");
    }

    @Test
    void writeAnswersSaltsWordsForAnUnknownSaltenvOrIndexAndNeedsDataAndPath() {
        assertThat(call("file_roots.write", Map.of("data", "x", "path", "a", "saltenv", "nope"))).isEqualTo("Named environment nope is not present");
        assertThat(call("file_roots.write", Map.of("data", "x", "path", "a", "saltenv", "dev", "index", 5)))
                .isEqualTo("Specified index 5 in environment dev is not present");
        assertThat(call("file_roots.write", Map.of("data", "x", "path", "a", "index", -1)))
                .isEqualTo("Specified index -1 in environment base is not present");
        assertThatThrownBy(() -> call("file_roots.write", Map.of("path", "a")))
                .isInstanceOf(InvalidRunnerArgumentsException.class).hasMessage("missing required argument 'data'");
        assertThat(base.resolve("a")).doesNotExist();
    }

    @Test
    void pillarRootsAreTheSameFunctionsOverTheirOwnSetting() {
        WheelFunctions pillar = new WheelFunctions(List.of(new RootsWheel("pillar_roots", () -> Map.of("base", List.of(dev1)))));

        assertThat(pillar.names()).containsExactly("pillar_roots.find", "pillar_roots.list_env", "pillar_roots.list_roots",
                "pillar_roots.read", "pillar_roots.write");
        RunnerFunction read = pillar.find("pillar_roots.read").orElseThrow();
        assertThat(read.body().call(read.signature().bind(List.of(), Map.of("path", "top.sls"))))
                .isEqualTo(List.of(Map.of(dev1 + "/top.sls", "dev: {}\n")));
    }

    @Test
    void textIsSaltsIsText() throws IOException {
        Path empty = Files.writeString(tmp.resolve("empty"), "");
        Path utf8 = Files.writeString(tmp.resolve("utf8"), "grüße\n");
        Path latin = Files.write(tmp.resolve("latin"), "caf\u00e9 au lait".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        Path noise = Files.write(tmp.resolve("noise"), new byte[] {(byte) 0xff, (byte) 0xfe, (byte) 0xfd, 'a'});

        assertThat(RootsWheel.isText(empty)).isTrue();
        assertThat(RootsWheel.isText(utf8)).isTrue();
        assertThat(RootsWheel.isText(latin)).isTrue(); // one byte in 14 outside ASCII
        assertThat(RootsWheel.isText(noise)).isFalse();
    }

    private Object call(String fun, Map<String, Object> kwargs) {
        RunnerFunction f = wheel.find(fun).orElseThrow();
        return f.body().call(f.signature().bind(List.of(), kwargs));
    }
}
