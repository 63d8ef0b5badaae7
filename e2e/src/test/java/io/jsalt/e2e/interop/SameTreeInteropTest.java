package io.jsalt.e2e.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same tree, real Salt: the repository's {@code examples/} (a template with pillar values, a service-like
 * program, commands on {@code onchanges}/{@code watch}) served by a jsalt master to an unmodified salt-minion 3006.8
 * and to a jsalt minion, whose {@code state.apply} returns must agree (state keys, order, result, changes); and
 * served by a real salt-master to a jsalt minion. A second apply changes nothing on any of them.
 */
@Tag("interop")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SameTreeInteropTest {
    private static final Path EXAMPLES = Path.of("..", "examples").toAbsolutePath().normalize();

    Path root;
    Processes processes;
    JsaltSide jsalt;
    SaltSide salt;
    SaltSide saltMaster;
    JsaltSide jsaltOnSalt;

    @BeforeAll
    void startFleets(@TempDir Path tmp) throws Exception {
        root = tmp;
        processes = new Processes();
        RealSalt.env();
        // jsalt master: the examples in its default file_roots and pillar_roots under its root_dir
        jsalt = new JsaltSide(processes, tmp.resolve("j"));
        copy(EXAMPLES.resolve("states"), tmp.resolve("j/srv/jsalt"));
        copy(EXAMPLES.resolve("pillar"), tmp.resolve("j/srv/pillar"));
        jsalt.startMaster("auto_accept: True");
        salt = new SaltSide(processes, tmp.resolve("s")); // short: Salt's IPC socket paths must fit 107 bytes
        salt.startMinion("sm1", jsalt.publishPort(), jsalt.retPort());
        jsalt.startMinion("jm1", jsalt.publishPort(), jsalt.retPort());

        // real salt-master serving the same tree (its roots are plain absolute paths)
        Path saltRoots = tmp.resolve("t");
        copy(EXAMPLES.resolve("states"), saltRoots.resolve("states"));
        copy(EXAMPLES.resolve("pillar"), saltRoots.resolve("pillar"));
        saltMaster = new SaltSide(processes, tmp.resolve("r"));
        saltMaster.startMaster("auto_accept: True", "file_roots:", "  base:", "    - " + saltRoots.resolve("states"),
                "pillar_roots:", "  base:", "    - " + saltRoots.resolve("pillar"));
        jsaltOnSalt = new JsaltSide(processes, tmp.resolve("k"));
        jsaltOnSalt.startMinion("jm2", saltMaster.publishPort(), saltMaster.retPort());

        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() -> {
            Processes.Result r = jsalt.jsalt("-t", "3", "-L", "sm1,jm1", "test.ping", "--out", "json", "--static");
            return r.exitCode() == 0 && Json.object(r.stdout()).equals(Map.of("sm1", true, "jm1", true));
        });
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() -> {
            Processes.Result r = saltMaster.salt("-t", "3", "jm2", "test.ping", "--out", "json", "--static");
            return r.exitCode() == 0 && r.stdout().strip().startsWith("{") && Json.object(r.stdout()).equals(Map.of("jm2", true));
        });
    }

    @AfterAll
    void stopFleets() {
        processes.close();
    }

    @Test
    @Order(1)
    void aSaltMinionAndAJsaltMinionApplyTheJsaltMastersTreeAlike() throws Exception {
        Map<String, Object> both = jsaltJson("-L", "sm1,jm1", "state.apply");

        Map<String, List<Object>> saltRun = comparable(both.get("sm1"));
        Map<String, List<Object>> jsaltRun = comparable(both.get("jm1"));
        assertThat(saltRun).as("salt-minion: %s", both.get("sm1")).hasSize(4);
        assertThat(jsaltRun).as("state key -> [run num, result, changes]; salt-minion %s, jsalt %s", saltRun, jsaltRun)
                .isEqualTo(saltRun);
        assertThat(saltRun.values()).allSatisfy(v -> assertThat(v.get(1)).isEqualTo(true));
        assertThat(saltRun.get("file_|-demo_config_|-ROOT/etc/app.conf_|-managed").get(2))
                .isEqualTo(Map.of("diff", "New file", "mode", "0644"));
        // the pillar each one rendered its template with is the one jsalt compiled for it
        assertThat(Files.readString(salt.minionRoot("sm1").resolve("var/cache/salt/minion/examples/etc/app.conf")))
                .contains("greeting = Hello from the pillar of sm1", "port = 8080", "host = sm1");
        assertThat(Files.readString(root.resolve("j/var/cache/jsalt/jm1/examples/etc/app.conf")))
                .contains("greeting = Hello from the pillar of jm1", "port = 8080", "host = jm1");
    }

    @Test
    @Order(2)
    void aSecondApplyChangesNothingOnEither() throws Exception {
        Map<String, Object> both = jsaltJson("-L", "sm1,jm1", "state.apply");

        Map<String, List<Object>> saltRun = comparable(both.get("sm1"));
        assertThat(comparable(both.get("jm1"))).isEqualTo(saltRun);
        assertThat(saltRun.values()).allSatisfy(v -> assertThat(v.subList(1, 3)).isEqualTo(List.of(true, Map.of())));
    }

    @Test
    @Order(3)
    void aJsaltMinionAppliesTheTreeARealSaltMasterServes() throws Exception {
        Map<String, List<Object>> first = comparable(saltJson("jm2", "state.apply").get("jm2"));
        Map<String, List<Object>> second = comparable(saltJson("jm2", "state.apply").get("jm2"));

        assertThat(first).hasSize(4);
        assertThat(first.values()).allSatisfy(v -> assertThat(v.get(1)).isEqualTo(true));
        assertThat(first.get("cmd_|-demo_service_restart_|-ROOT/bin/demo-service restart ROOT_|-run").get(2))
                .isEqualTo(List.of("pid", "retcode", "stderr", "stdout"));
        assertThat(second.values()).allSatisfy(v -> assertThat(v.subList(1, 3)).isEqualTo(List.of(true, Map.of())));
        assertThat(Files.readString(root.resolve("k/var/cache/jsalt/jm2/examples/etc/app.conf")))
                .contains("greeting = Hello from the pillar of jm2");
        assertThat(saltJson("jm2", "cp.list_master", "prefix=demo")).isEqualTo(Map.of("jm2",
                List.of("demo/app.conf.j2", "demo/demo-service.sh", "demo/init.sls")));
        Map<String, Object> pillar = saltJson("jm2", "pillar.get", "demo:greeting");
        assertThat(pillar).isEqualTo(Map.of("jm2", "Hello from the pillar of jm2"));
    }

    /**
     * One minion's state return as {@code key -> [__run_num__, result, changes]} with the minion's own folder
     * replaced by {@code ROOT}; a command's changes by their keys (pid and output differ from run to run).
     */
    private static Map<String, List<Object>> comparable(Object ret) {
        assertThat(ret).as("a state return, not an error list").isInstanceOf(Map.class);
        Map<String, List<Object>> out = new TreeMap<>();
        ((Map<?, ?>) ret).forEach((tag, value) -> {
            Map<?, ?> entry = (Map<?, ?>) value;
            Map<?, ?> changes = (Map<?, ?>) entry.get("changes");
            Object shownChanges = String.valueOf(tag).startsWith("cmd_") && !changes.isEmpty()
                    ? changes.keySet().stream().map(String::valueOf).sorted().toList() : changes;
            out.put(rooted(String.valueOf(tag)), List.of(entry.get("__run_num__"), String.valueOf(entry.get("result")).equals("true")
                    ? true : String.valueOf(entry.get("result")), shownChanges));
        });
        return out;
    }

    private static String rooted(String text) {
        return text.replaceAll("/[^ ]*?/examples", "ROOT");
    }

    private Map<String, Object> jsaltJson(String... args) throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(List.of("-t", "120"));
        all.addAll(List.of(args));
        all.addAll(List.of("--out", "json", "--static"));
        Processes.Result r = jsalt.jsalt(all.toArray(String[]::new));
        assertThat(r.stdout()).as(r.toString()).startsWith("{");
        return Json.object(r.stdout());
    }

    private Map<String, Object> saltJson(String... args) throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--out", "json", "--static", "-t", "60"));
        Processes.Result r = saltMaster.salt(all.toArray(String[]::new));
        assertThat(r.stdout().strip()).as(r.toString()).startsWith("{");
        return Json.object(r.stdout());
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : walk.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
