package io.jsalt.e2e.states;

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
 * {@code jsalt m1 state.apply web} with a real master whose file_roots hold an SLS tree and a real minion: the
 * minion renders the SLS and a Jinja template it fetches from the master, installs the file, and runs a command
 * only when the file changed ({@code onchanges}); a second apply changes nothing; {@code test=True} changes
 * nothing and predicts what would change; without names, the minion applies what top.sls gives it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StateApplyEndToEndTest {
    private static final String CONF_KEY = "file_|-web_conf_|-%s_|-managed";
    private static final String RELOAD_KEY = "cmd_|-reload_web_|-echo reloaded >> %s_|-run";

    private ClusterHandle cluster;
    private Path target;
    private Path conf;
    private Path reloads;

    @BeforeAll
    void startCluster(@TempDir Path tmp) throws Exception {
        cluster = new ClusterHandle(tmp);
        target = Files.createDirectories(tmp.resolve("target"));
        conf = target.resolve("etc/web/app.conf");
        reloads = target.resolve("reloads");
        Path fileRoot = tmp.resolve("srv/jsalt");
        Files.createDirectories(fileRoot.resolve("web"));
        Files.writeString(fileRoot.resolve("web/init.sls"), """
                include:
                  - .settings
                web_conf:
                  file.managed:
                    - name: %s
                    - source: salt://web/app.conf.j2
                    - template: jinja
                    - makedirs: True
                    - mode: 640
                    - context:
                        port: {{ salt['test.echo']('8080') }}
                reload_web:
                  cmd.run:
                    - name: echo reloaded >> %s
                    - onchanges:
                      - file: web_conf
                """.formatted(conf, reloads));
        Files.writeString(fileRoot.resolve("web/settings.sls"), "settings_dir:\n  file.directory:\n    - name: "
                + target.resolve("etc/web") + "\n    - makedirs: True\n");
        Files.writeString(fileRoot.resolve("web/app.conf.j2"), "host={{ grains['id'] }}\nport={{ port }}\n");
        Files.writeString(fileRoot.resolve("broken.sls"), "fails:\n  test.fail_without_changes: []\n");
        Files.writeString(fileRoot.resolve("top.sls"), "base:\n  'm*':\n    - fromtop\n  'other':\n    - broken\n");
        Files.writeString(fileRoot.resolve("fromtop.sls"), "from_top:\n  test.succeed_with_changes: []\n");
        cluster.startMaster("auto_accept: True", "file_roots:", "  base:", "    - " + fileRoot);
        cluster.startMinion("m1");
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(cluster.jsalt("-t", "5", "m1", "test.ping").exitCode()).isZero());
    }

    @AfterAll
    void stopCluster() {
        cluster.close();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Map<String, Object>> apply(String... args) throws IOException, InterruptedException {
        String[] full = new String[args.length + 5];
        System.arraycopy(new String[] {"-t", "90", "--out", "json", "m1"}, 0, full, 0, 5);
        System.arraycopy(args, 0, full, 5, args.length);
        ClusterHandle.Outcome out = cluster.jsalt(full);
        assertThat(out.exitCode()).as(out.toString()).isZero();
        Map<String, Object> byMinion = (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(out.stdout());
        assertThat(byMinion.get("m1")).as(out.toString()).isInstanceOf(Map.class);
        return (Map<String, Map<String, Object>>) byMinion.get("m1");
    }

    private Map<String, Object> confState(Map<String, Map<String, Object>> ret) {
        return ret.get(CONF_KEY.formatted(conf));
    }

    private Map<String, Object> reloadState(Map<String, Map<String, Object>> ret) {
        return ret.get(RELOAD_KEY.formatted(reloads));
    }

    @Test
    @Order(1)
    void testModePredictsTheChangesAndChangesNothing() throws Exception {
        Map<String, Map<String, Object>> ret = apply("state.apply", "web", "test=True");
        assertThat(ret).hasSize(3);
        assertThat(confState(ret)).containsEntry("result", null).containsEntry("changes", Map.of("newfile", conf.toString()));
        assertThat(reloadState(ret)).containsEntry("result", null);
        assertThat(Files.exists(target.resolve("etc"))).isFalse();
        assertThat(Files.exists(reloads)).isFalse();
    }

    @Test
    @Order(2)
    void applyInstallsTheTemplateAndRunsTheCommandOnChange() throws Exception {
        Map<String, Map<String, Object>> ret = apply("state.apply", "web");
        assertThat(ret.values()).allSatisfy(state -> assertThat(state).containsEntry("result", true));
        // the included sls runs first, then web's own states in the order written
        assertThat(ret.get("file_|-settings_dir_|-" + target.resolve("etc/web") + "_|-directory"))
                .containsEntry("__run_num__", 0).containsEntry("__sls__", "web.settings");
        assertThat(confState(ret)).containsEntry("__run_num__", 1).containsEntry("__id__", "web_conf")
                .containsEntry("changes", Map.of("diff", "New file", "mode", "0640"));
        assertThat(reloadState(ret)).containsEntry("__run_num__", 2);
        assertThat(Files.readString(conf)).isEqualTo("host=m1\nport=8080\n");
        assertThat(Files.readAllLines(reloads)).containsExactly("reloaded");
    }

    @Test
    @Order(3)
    void aSecondApplyReportsNoChangesAndRunsNothing() throws Exception {
        Map<String, Map<String, Object>> ret = apply("state.apply", "web");
        assertThat(ret.values()).allSatisfy(state -> assertThat(state).containsEntry("result", true)
                .containsEntry("changes", Map.of()));
        assertThat(reloadState(ret)).containsEntry("comment",
                "State was not run because none of the onchanges reqs changed");
        assertThat(Files.readAllLines(reloads)).containsExactly("reloaded");
    }

    @Test
    @Order(4)
    void aLocalEditIsRevertedWithItsDiffAndTheCommandRunsAgain() throws Exception {
        Files.writeString(conf, "host=m1\nport=1\n");
        Map<String, Map<String, Object>> dry = apply("state.sls", "web", "test=True");
        assertThat(confState(dry)).containsEntry("result", null);
        assertThat((String) ((Map<?, ?>) confState(dry).get("changes")).get("diff")).contains("-port=1", "+port=8080");
        assertThat(Files.readString(conf)).isEqualTo("host=m1\nport=1\n");
        assertThat(Files.readAllLines(reloads)).containsExactly("reloaded");

        Map<String, Map<String, Object>> ret = apply("state.sls", "web");
        assertThat((String) ((Map<?, ?>) confState(ret).get("changes")).get("diff")).contains("-port=1", "+port=8080");
        assertThat(Files.readString(conf)).isEqualTo("host=m1\nport=8080\n");
        assertThat(Files.readAllLines(reloads)).containsExactly("reloaded", "reloaded");
    }

    @Test
    @Order(6)
    void applyWithoutNamesRunsWhatTopGivesThisMinion() throws Exception {
        Map<String, Map<String, Object>> ret = apply("state.apply", "test=True");
        assertThat(ret.keySet()).containsExactly("test_|-from_top_|-from_top_|-succeed_with_changes");
        assertThat(ret.get("test_|-from_top_|-from_top_|-succeed_with_changes")).containsEntry("result", null);
    }

    @Test
    @Order(5)
    void aFailedStateMakesTheCommandFail() throws Exception {
        ClusterHandle.Outcome out = cluster.jsalt("-t", "90", "--out", "json", "m1", "state.sls", "broken");
        assertThat(out.exitCode()).as(out.toString()).isNotZero();
        assertThat(out.stdout()).contains("\"result\": false", "Failure!");
    }
}
