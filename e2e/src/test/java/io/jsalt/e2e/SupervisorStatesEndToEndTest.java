package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * {@code supervisor.running} / {@code supervisord.dead} in a real minion's {@code state.apply}: an SLS from the
 * master defines a program with its keys and keeps it running; a changed config file it watches restarts it (a new
 * pid); {@code supervisord.dead} stops it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SupervisorStatesEndToEndTest {
    private ClusterHandle cluster;
    private Path config;
    private Path fileRoot;

    @BeforeAll
    void startCluster(@TempDir Path tmp) throws Exception {
        cluster = new ClusterHandle(tmp);
        config = tmp.resolve("app.conf");
        fileRoot = Files.createDirectories(tmp.resolve("srv/jsalt"));
        Files.writeString(fileRoot.resolve("app.sls"), """
                app_conf:
                  file.managed:
                    - name: CONFIG
                    - contents: {{ pillar.get('version', 'one') }}
                app:
                  supervisor.running:
                    - command: sleep 1009
                    - startsecs: 0
                    - watch:
                      - file: app_conf
                """.replace("CONFIG", config.toString()));
        Files.writeString(fileRoot.resolve("stopped.sls"), "app:\n  supervisord.dead: []\n");
        cluster.startMaster("auto_accept: True", "file_roots:", "  base:", "    - " + fileRoot);
        cluster.startMinion("m1", "supervisor_on_stop: stop");
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(cluster.jsalt("-t", "5", "m1", "test.ping").exitCode()).isZero());
    }

    @AfterAll
    void stopCluster() {
        cluster.close();
    }

    private Map<?, ?> apply(String... args) throws Exception {
        String[] full = new String[args.length + 6];
        System.arraycopy(new String[] {"-t", "90", "--out", "json", "m1", "state.apply"}, 0, full, 0, 6);
        System.arraycopy(args, 0, full, 6, args.length);
        ClusterHandle.Outcome out = cluster.jsalt(full);
        assertThat(out.exitCode()).as(out.toString()).isZero();
        return (Map<?, ?>) ((Map<?, ?>) new Load(LoadSettings.builder().build()).loadFromString(out.stdout())).get("m1");
    }

    private static Map<?, ?> state(Map<?, ?> ret, String key) {
        return (Map<?, ?>) ret.get(key);
    }

    private long pid() throws Exception {
        ClusterHandle.Outcome out = cluster.jsalt("-t", "30", "--out", "json", "m1", "supervisor.pid", "app");
        Matcher m = Pattern.compile("\"m1\":\\s*(\\d+)").matcher(out.stdout());
        assertThat(m.find()).as(out.toString()).isTrue();
        return Long.parseLong(m.group(1));
    }

    @Test
    @Order(1)
    void aStateDefinesAndStartsTheProgramAndAWatchedChangeRestartsIt() throws Exception {
        Map<?, ?> first = apply("app");
        Map<?, ?> running = state(first, "supervisor_|-app_|-app_|-running");
        assertThat(running.get("result")).as(first.toString()).isEqualTo(true);
        assertThat(((Map<?, ?>) running.get("changes")).containsKey("app")).as(first.toString()).isTrue();
        long pid = pid();
        assertThat(pid).isPositive();

        Map<?, ?> same = apply("app");
        assertThat((Map<?, ?>) state(same, "supervisor_|-app_|-app_|-running").get("changes")).as(same.toString()).isEmpty();
        assertThat(pid()).as("nothing changed: not restarted").isEqualTo(pid);

        Map<?, ?> changed = apply("app", "pillar={\"version\": \"two\"}");
        assertThat(Files.readString(config).strip()).isEqualTo("two");
        // as in Salt, the watch's mod_watch answers for the state itself
        Map<?, ?> watch = state(changed, "supervisor_|-app_|-app_|-running");
        assertThat(watch.get("result")).as(changed.toString()).isEqualTo(true);
        assertThat(((Map<?, ?>) watch.get("changes")).get("app")).isEqualTo("Restarting service: app");
        assertThat(pid()).as("restarted by the watch").isPositive().isNotEqualTo(pid);
    }

    @Test
    @Order(2)
    void deadStopsIt() throws Exception {
        Map<?, ?> ret = apply("stopped");
        Map<?, ?> dead = state(ret, "supervisord_|-app_|-app_|-dead");
        assertThat(dead.get("result")).as(ret.toString()).isEqualTo(true);
        assertThat(dead.get("changes")).isEqualTo(Map.of("app", "Stopping service: app"));
        assertThat(pid()).isZero();
    }
}
