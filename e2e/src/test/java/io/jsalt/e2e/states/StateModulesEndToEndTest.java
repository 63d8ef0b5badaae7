package io.jsalt.e2e.states;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.e2e.ClusterHandle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
 * The state modules as a real minion process has them: {@code module.run} in both of Salt's styles from an SLS on
 * the master, {@code module.wait} run by a {@code watch}, {@code state.single}, and the minion's
 * {@code sys.list_state_modules}. (The user, group, pkg, service and cron states change the host they run on; their
 * tests run the real tools on folders of their own, in the states module.)
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StateModulesEndToEndTest {
    private ClusterHandle cluster;
    private Path ran;
    private Path watched;

    @BeforeAll
    void startCluster(@TempDir Path tmp) throws Exception {
        cluster = new ClusterHandle(tmp);
        Path target = Files.createDirectories(tmp.resolve("target"));
        ran = target.resolve("ran");
        watched = target.resolve("watched");
        Path fileRoot = Files.createDirectories(tmp.resolve("srv/jsalt"));
        Files.writeString(fileRoot.resolve("mods.sls"), """
                marker:
                  file.managed:
                    - name: MARKER
                    - contents: one
                calls:
                  module.run:
                    - test.echo:
                      - text: hi
                    - cmd.run:
                      - echo ran >> RAN
                on_change:
                  module.wait:
                    - name: cmd.run
                    - cmd: echo watched >> WATCHED
                    - watch:
                      - file: marker
                """.replace("MARKER", target.resolve("marker").toString()).replace("RAN", ran.toString())
                .replace("WATCHED", watched.toString()));
        cluster.startMaster("auto_accept: True", "file_roots:", "  base:", "    - " + fileRoot);
        cluster.startMinion("m1");
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(cluster.jsalt("-t", "5", "m1", "test.ping").exitCode()).isZero());
    }

    @AfterAll
    void stopCluster() {
        cluster.close();
    }

    private Object call(String... args) throws IOException, InterruptedException {
        String[] full = new String[args.length + 5];
        System.arraycopy(new String[] {"-t", "90", "--out", "json", "m1"}, 0, full, 0, 5);
        System.arraycopy(args, 0, full, 5, args.length);
        ClusterHandle.Outcome out = cluster.jsalt(full);
        assertThat(out.exitCode()).as(out.toString()).isZero();
        Map<?, ?> byMinion = (Map<?, ?>) new Load(LoadSettings.builder().build()).loadFromString(out.stdout());
        return byMinion.get("m1");
    }

    @Test
    @Order(1)
    void moduleRunCallsTheMinionsFunctionsAndAWatchRunsModuleWait() throws Exception {
        Map<?, ?> ret = (Map<?, ?>) call("state.apply", "mods");
        Map<?, ?> calls = (Map<?, ?>) ret.get("module_|-calls_|-calls_|-run");
        assertThat(calls.get("result")).as(ret.toString()).isEqualTo(true);
        assertThat(((Map<?, ?>) calls.get("changes")).get("test.echo")).isEqualTo("hi");
        assertThat(calls.get("comment")).asString().startsWith("test.echo: hi, cmd.run: ");
        Map<?, ?> onChange = (Map<?, ?>) ret.get("module_|-on_change_|-cmd.run_|-wait");
        assertThat(onChange.get("comment")).isEqualTo("Module function cmd.run executed");
        assertThat(Files.readAllLines(ran)).containsExactly("ran");
        assertThat(Files.readAllLines(watched)).containsExactly("watched");
    }

    @Test
    @Order(2)
    void withoutAChangeTheWatchRunsNothing() throws Exception {
        Map<?, ?> ret = (Map<?, ?>) call("state.apply", "mods");
        assertThat(((Map<?, ?>) ret.get("module_|-on_change_|-cmd.run_|-wait")).get("changes")).isEqualTo(Map.of());
        assertThat(Files.readAllLines(ran)).containsExactly("ran", "ran");
        assertThat(Files.readAllLines(watched)).containsExactly("watched");
    }

    @Test
    @Order(3)
    void stateSingleAndTheListingsSeeTheStateModules() throws Exception {
        Map<?, ?> single = (Map<?, ?>) call("state.single", "module.run", "name=test.echo", "text=hello");
        assertThat(((Map<?, ?>) single.get("module_|-test.echo_|-test.echo_|-run")).get("changes"))
                .isEqualTo(Map.of("ret", "hello"));
        assertThat(call("sys.list_state_modules")).isEqualTo(
                List.of("cmd", "cron", "file", "group", "module", "pkg", "service", "supervisor", "supervisord", "test",
                        "user"));
        assertThat(call("sys.list_state_functions", "service")).isEqualTo(
                List.of("service.dead", "service.disabled", "service.enabled", "service.running"));
    }
}
