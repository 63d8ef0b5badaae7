package io.jsalt.e2e.states;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.e2e.ClusterHandle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * Issue 16's proof, with real processes: a master whose file_roots and pillar_roots hold the repository's
 * {@code examples/} (a config file from a template with pillar values, a service-like program, commands on
 * {@code onchanges} and {@code watch}) plus a {@code cmd.wait_script} whose script is a template, and three
 * minions. A highstate across the three installs everything and shows it; a second one changes nothing; a local
 * edit is shown as a diff and undone, running the commands of that minion alone; {@code test=True} changes nothing
 * on any minion (every file of each managed tree is checksummed before and after). The master's
 * {@code state_verbose: False} leaves unchanged states out of the highstate output, and the flag overrides it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FleetHighstateEndToEndTest {
    private static final Path EXAMPLES = Path.of("..", "examples").toAbsolutePath().normalize();
    private static final List<String> MINIONS = List.of("m1", "m2", "m3");
    private static final String CONFIG = "file_|-demo_config_|-%s/etc/app.conf_|-managed";
    private static final String RESTART = "cmd_|-demo_service_restart_|-%s/bin/demo-service restart %s_|-run";
    private static final String REPORT = "cmd_|-demo_report_|-demo_report_|-wait_script";

    private ClusterHandle cluster;

    @BeforeAll
    void startCluster(@TempDir Path tmp) throws Exception {
        cluster = new ClusterHandle(tmp);
        Path fileRoot = tmp.resolve("srv/jsalt");
        Path pillarRoot = tmp.resolve("srv/pillar");
        copy(EXAMPLES.resolve("states"), fileRoot);
        copy(EXAMPLES.resolve("pillar"), pillarRoot);
        Files.createDirectories(fileRoot.resolve("extra"));
        Files.writeString(fileRoot.resolve("extra/report.sh.j2"), """
                #!/bin/sh
                echo "{{ pillar['demo']['greeting'] }} on port $1" > "$2/run/report"
                echo "changed=yes comment='report written for {{ grains['id'] }}'"
                """);
        Files.writeString(fileRoot.resolve("extra/init.sls"), """
                {% set root = opts['cachedir'] ~ '/examples' %}
                include:
                  - demo
                demo_report:
                  cmd.wait_script:
                    - source: salt://extra/report.sh.j2
                    - template: jinja
                    - args: "{{ salt['pillar.get']('demo:port') }} {{ root }}"
                    - stateful: True
                    - watch:
                      - file: demo_config
                """);
        Files.writeString(fileRoot.resolve("top.sls"), "base:\n  '*':\n    - demo\n    - extra\n");
        cluster.startMaster("auto_accept: True", "state_verbose: False", "file_roots:", "  base:", "    - " + fileRoot,
                "pillar_roots:", "  base:", "    - " + pillarRoot);
        for (String id : MINIONS) {
            cluster.startMinion(id);
        }
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
            ClusterHandle.Outcome ping = cluster.jsalt("-t", "5", "--out", "json", "--static", "m*", "test.ping");
            assertThat(ping.exitCode()).isZero();
            assertThat(ping.stdout()).contains("\"m1\"", "\"m2\"", "\"m3\"");
        });
        // A minion fetches its pillar when it signs in; on a loaded machine that request can time out, and the minion
        // then holds an empty pillar until a refresh (Salt compiles the pillar for every state run; jsalt's state runs
        // use the pillar in memory). Each minion must hold its pillar before the proof starts: refresh until it does.
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
            ClusterHandle.Outcome port = cluster.jsalt("-t", "10", "--out", "json", "--static", "m*", "pillar.get", "demo:port");
            boolean all = MINIONS.stream().allMatch(id -> port.stdout().contains("\"" + id + "\": 8080"));
            if (!all) {
                cluster.jsalt("-t", "10", "m*", "saltutil.refresh_pillar");
            }
            assertThat(all).as(port.toString()).isTrue();
        });
    }

    @AfterAll
    void stopCluster() {
        cluster.close();
    }

    private Path tree(String id) {
        return cluster.root().resolve("var/cache/jsalt/" + id + "/examples");
    }

    private String key(String pattern, String id) {
        Path root = tree(id);
        return pattern.formatted(root, root, root);
    }

    /** Every file of the three managed trees, by path, with its sha256 and mode. */
    private Map<String, String> checksums() throws IOException {
        Map<String, String> sums = new TreeMap<>();
        for (String id : MINIONS) {
            if (!Files.exists(tree(id))) {
                continue;
            }
            try (Stream<Path> files = Files.walk(tree(id))) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    sums.put(f.toString(), HexFormat.of().formatHex(sha256(Files.readAllBytes(f)))
                            + " " + Files.getPosixFilePermissions(f));
                }
            }
        }
        return sums;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private Map<String, Map<String, Map<String, Object>>> highstateJson(String... extra) throws Exception {
        String[] args = Stream.concat(Stream.of("-t", "120", "--out", "json", "--static", "m*", "state.apply"),
                Stream.of(extra)).toArray(String[]::new);
        ClusterHandle.Outcome out = cluster.jsalt(args);
        assertThat(out.exitCode()).as(out.toString()).isZero();
        Map<String, Object> byMinion = (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(out.stdout());
        assertThat(byMinion).as(out.toString()).containsOnlyKeys(MINIONS);
        return (Map<String, Map<String, Map<String, Object>>>) (Map<?, ?>) byMinion;
    }

    private ClusterHandle.Outcome highstateText(String... extra) throws Exception {
        String[] args = Stream.concat(Stream.of("-t", "120", "m*", "state.apply"), Stream.of(extra)).toArray(String[]::new);
        ClusterHandle.Outcome out = cluster.jsalt(args);
        assertThat(out.exitCode()).as(out.toString()).isZero();
        return out;
    }

    @Test
    @Order(1)
    void testModeOnTheFreshFleetPredictsEverythingAndWritesNothing() throws Exception {
        Map<String, String> before = checksums();
        Map<String, Map<String, Map<String, Object>>> ret = highstateJson("test=True");
        for (String id : MINIONS) {
            assertThat(ret.get(id).get(key(CONFIG, id))).containsEntry("result", null)
                    .containsEntry("changes", Map.of("newfile", tree(id) + "/etc/app.conf"));
            assertThat(ret.get(id).get(key(RESTART, id))).containsEntry("result", null);
        }
        assertThat(checksums()).isEqualTo(before).isEmpty();
    }

    @Test
    @Order(2)
    void theFirstHighstateInstallsTheTreeOnEveryMinionAndShowsWhatChanged() throws Exception {
        ClusterHandle.Outcome out = highstateText();
        for (String id : MINIONS) {
            assertThat(out.stdout()).contains("Summary for " + id, "demo-service restarted (generation 1, port = 8080)");
            assertThat(Files.readString(tree(id).resolve("etc/app.conf")))
                    .contains("greeting = Hello from the pillar of " + id, "port = 8080", "host = " + id);
            assertThat(Files.readString(tree(id).resolve("run/generation")).strip()).isEqualTo("1");
            // the wait_script ran once, as the config changed: its template saw this minion's pillar
            assertThat(Files.readString(tree(id).resolve("run/report")))
                    .isEqualTo("Hello from the pillar of " + id + " on port 8080\n");
        }
        assertThat(out.stdout()).contains("report written for m2", "Failed:    0");
    }

    @Test
    @Order(3)
    void aSecondHighstateChangesNothingAndTheMastersStateVerboseHidesTheUnchangedStates() throws Exception {
        Map<String, String> before = checksums();
        Map<String, Map<String, Map<String, Object>>> ret = highstateJson();
        for (String id : MINIONS) {
            assertThat(ret.get(id).values()).allSatisfy(state -> assertThat(state)
                    .containsEntry("result", true).containsEntry("changes", Map.of()));
            assertThat(ret.get(id).get(key(RESTART, id))).containsEntry("comment",
                    "State was not run because none of the onchanges reqs changed");
            assertThat(ret.get(id).get(REPORT)).containsEntry("comment", "");
        }
        assertThat(checksums()).isEqualTo(before);

        // state_verbose: False in the master config: only the summaries; --state-verbose True shows every state
        ClusterHandle.Outcome quiet = highstateText();
        assertThat(quiet.stdout()).doesNotContain("ID: demo_config").contains("Summary for m1", "Summary for m3");
        ClusterHandle.Outcome verbose = highstateText("--state-verbose", "True");
        assertThat(verbose.stdout()).contains("          ID: demo_config");
    }

    @Test
    @Order(4)
    void aLocalEditIsShownAsADiffInTestModeAndNothingChangesAnywhere() throws Exception {
        Files.writeString(tree("m2").resolve("etc/app.conf"), Files.readString(tree("m2").resolve("etc/app.conf"))
                .replace("port = 8080", "port = 1"));
        Map<String, String> before = checksums();
        Map<String, Map<String, Map<String, Object>>> ret = highstateJson("test=True");
        Map<String, Object> config = ret.get("m2").get(key(CONFIG, "m2"));
        assertThat(config).containsEntry("result", null);
        assertThat((String) ((Map<?, ?>) config.get("changes")).get("diff")).contains("-port = 1", "+port = 8080");
        assertThat(ret.get("m1").get(key(CONFIG, "m1"))).containsEntry("result", true).containsEntry("changes", Map.of());
        // the watch fires in test mode; a stateful script's prediction has Salt's empty comment
        assertThat(ret.get("m2").get(REPORT)).containsEntry("result", null).containsEntry("comment", "");
        assertThat(ret.get("m1").get(REPORT)).containsEntry("result", true);
        assertThat(checksums()).isEqualTo(before);
    }

    @Test
    @Order(5)
    void applyingUndoesTheEditShowingTheDiffAndRestartsOnlyThatMinionsService() throws Exception {
        ClusterHandle.Outcome out = highstateText();
        assertThat(out.stdout()).contains("-port = 1", "+port = 8080", "demo-service restarted (generation 2, port = 8080)");
        assertThat(Files.readString(tree("m2").resolve("etc/app.conf"))).contains("port = 8080");
        assertThat(Files.readString(tree("m2").resolve("run/generation")).strip()).isEqualTo("2");
        assertThat(Files.readString(tree("m1").resolve("run/generation")).strip()).isEqualTo("1");
        assertThat(Files.readString(tree("m3").resolve("run/generation")).strip()).isEqualTo("1");
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            files.forEach(f -> {
                try {
                    Path dest = to.resolve(from.relativize(f).toString());
                    if (Files.isDirectory(f)) {
                        Files.createDirectories(dest);
                    } else {
                        Files.copy(f, dest);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
