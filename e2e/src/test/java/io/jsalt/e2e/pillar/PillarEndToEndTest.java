package io.jsalt.e2e.pillar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.e2e.ClusterHandle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
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
 * Pillar end to end, with a real master process whose pillar_roots give each minion its own values and two real
 * minion processes: {@code pillar.get} and {@code pillar.items} answer from what the master compiled for that
 * minion (and never another's), {@code -I} targets by it, a state renders a file from it (with a
 * {@code pillar=} override on top), and {@code saltutil.refresh_pillar} brings an edit of the pillar files.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PillarEndToEndTest {
    private ClusterHandle cluster;
    private Path pillarRoot;
    private Path target;

    @BeforeAll
    void startCluster(@TempDir Path tmp) throws Exception {
        cluster = new ClusterHandle(tmp);
        target = Files.createDirectories(tmp.resolve("target"));
        pillarRoot = Files.createDirectories(tmp.resolve("srv/pillar"));
        Files.writeString(pillarRoot.resolve("top.sls"), """
                base:
                  '*':
                    - common
                  'role:web':
                    - match: grain
                    - web
                  m2:
                    - secret
                """);
        Files.writeString(pillarRoot.resolve("common.sls"), "motd: Welcome to {{ grains['id'] }}\n");
        Files.writeString(pillarRoot.resolve("web.sls"), "web:\n  port: 8080\n");
        Files.writeString(pillarRoot.resolve("secret.sls"), "secret: only-for-m2\n");
        Path fileRoot = Files.createDirectories(tmp.resolve("srv/jsalt"));
        Files.writeString(fileRoot.resolve("motd.sls"), """
                motd:
                  file.managed:
                    - name: %s/{{ grains['id'] }}.motd
                    - contents: "{{ pillar['motd'] }} port={{ salt['pillar.get']('web:port', 'none') }}"
                """.formatted(target));
        cluster.startMaster("auto_accept: True", "file_roots:", "  base:", "    - " + fileRoot,
                "pillar_roots:", "  base:", "    - " + pillarRoot);
        cluster.startMinion("m1", "grains:", "  role: web");
        cluster.startMinion("m2", "grains:", "  role: db");
        // both by name: with auto_accept, m1's key may not be accepted yet when m2 already answers, and 'm*' then
        // targets m2 alone and exits 0
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            ClusterHandle.Outcome ping = cluster.jsalt("-t", "5", "--out", "json", "--static", "m*", "test.ping");
            assertThat(ping.exitCode()).isZero();
            assertThat(ping.stdout()).contains("\"m1\"", "\"m2\"");
        });
    }

    @AfterAll
    void stopCluster() {
        cluster.close();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> json(String... args) throws IOException, InterruptedException {
        String[] full = new String[args.length + 5];
        System.arraycopy(new String[] {"-t", "60", "--out", "json", "--static"}, 0, full, 0, 5);
        System.arraycopy(args, 0, full, 5, args.length);
        ClusterHandle.Outcome out = cluster.jsalt(full);
        assertThat(out.exitCode()).as(out.toString()).isZero();
        return (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(out.stdout());
    }

    @Test
    @Order(1)
    void pillarGetAnswersFromEachMinionsOwnPillar() throws Exception {
        assertThat(json("m*", "pillar.get", "web:port")).isEqualTo(Map.of("m1", 8080, "m2", ""));
        assertThat(json("m*", "pillar.get", "motd")).isEqualTo(Map.of("m1", "Welcome to m1", "m2", "Welcome to m2"));
        assertThat(json("m1", "pillar.get", "web|port", "delimiter=|")).isEqualTo(Map.of("m1", 8080));
        assertThat(json("m2", "pillar.get", "nothing", "default=fallback")).isEqualTo(Map.of("m2", "fallback"));
    }

    @Test
    @Order(2)
    void aMinionNeverSeesAnotherMinionsPillar() throws Exception {
        assertThat(json("m*", "pillar.items")).isEqualTo(Map.of(
                "m1", Map.of("motd", "Welcome to m1", "web", Map.of("port", 8080)),
                "m2", Map.of("motd", "Welcome to m2", "secret", "only-for-m2")));
        assertThat(json("m1", "pillar.raw")).isEqualTo(Map.of("m1", Map.of("motd", "Welcome to m1", "web", Map.of("port", 8080))));
        assertThat(json("m*", "pillar.ls")).isEqualTo(Map.of("m1", java.util.List.of("motd", "web"),
                "m2", java.util.List.of("motd", "secret")));
    }

    @Test
    @Order(3)
    void pillarTargetsReachTheMinionsWhosePillarMatches() throws Exception {
        assertThat(json("-I", "web:port:8080", "test.ping")).isEqualTo(Map.of("m1", true));
        assertThat(json("-C", "I@secret:only-* or I@web:port:1", "test.ping")).isEqualTo(Map.of("m2", true));
        ClusterHandle.Outcome none = cluster.jsalt("-t", "10", "-I", "secret:nope", "test.ping");
        assertThat(none.exitCode()).as(none.toString()).isEqualTo(2);
        assertThat(none.text()).contains("No minions matched the target.");
    }

    @Test
    @Order(4)
    void aStateRendersAFileFromThePillarAndAnOverrideMergesOnTop() throws Exception {
        assertThat(cluster.jsalt("-t", "90", "m*", "state.apply", "motd").exitCode()).isZero();
        assertThat(Files.readString(target.resolve("m1.motd"))).isEqualTo("Welcome to m1 port=8080\n");
        assertThat(Files.readString(target.resolve("m2.motd"))).isEqualTo("Welcome to m2 port=none\n");

        ClusterHandle.Outcome out = cluster.jsalt("-t", "90", "m1", "state.apply", "motd", "pillar={\"motd\": \"Overridden\"}");
        assertThat(out.exitCode()).as(out.toString()).isZero();
        assertThat(Files.readString(target.resolve("m1.motd"))).isEqualTo("Overridden port=8080\n");
        assertThat(json("m1", "pillar.get", "motd")).as("an override lasts one run").isEqualTo(Map.of("m1", "Welcome to m1"));
    }

    @Test
    @Order(5)
    void refreshPillarBringsAnEditOfThePillarFiles() throws Exception {
        Files.writeString(pillarRoot.resolve("web.sls"), "web:\n  port: 9090\n");
        assertThat(json("m1", "pillar.get", "web:port")).as("the pillar in memory until a refresh").isEqualTo(Map.of("m1", 8080));
        // the master lists pillar files afresh within a couple of seconds: refresh until the new value arrives
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(json("m1", "saltutil.refresh_pillar")).isEqualTo(Map.of("m1", true));
            assertThat(json("m1", "pillar.get", "web:port")).isEqualTo(Map.of("m1", 9090));
        });
        assertThat(json("-I", "web:port:9090", "test.ping")).as("the master targets by the refreshed pillar")
                .isEqualTo(Map.of("m1", true));
    }
}
