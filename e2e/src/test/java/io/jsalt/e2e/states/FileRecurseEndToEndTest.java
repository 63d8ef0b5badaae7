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
 * {@code file.recurse} as a real minion process runs it: the folder is listed and fetched through the jsalt master's
 * file server ({@code _file_list}, {@code _serve_file}), rendered, cleaned; a second run changes nothing; test mode
 * predicts a change on the master without touching the minion's copy.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FileRecurseEndToEndTest {
    private ClusterHandle cluster;
    private Path fileRoot;
    private Path dest;

    @BeforeAll
    void startCluster(@TempDir Path tmp) throws Exception {
        cluster = new ClusterHandle(tmp);
        dest = tmp.resolve("target/conf.d");
        fileRoot = Files.createDirectories(tmp.resolve("srv/jsalt"));
        Files.createDirectories(fileRoot.resolve("web/conf.d/sub"));
        Files.writeString(fileRoot.resolve("web/conf.d/main.conf"), "host={{ grains['id'] }}\n");
        Files.writeString(fileRoot.resolve("web/conf.d/sub/port.conf"), "port={{ port }}\n");
        Files.writeString(fileRoot.resolve("web/conf.d/old.bak"), "not copied\n");
        Files.writeString(fileRoot.resolve("web/conf.d2.txt"), "a sibling the prefix also matches\n");
        Files.writeString(fileRoot.resolve("files.sls"), """
                confs:
                  file.recurse:
                    - name: %s
                    - source: salt://web/conf.d
                    - template: jinja
                    - context:
                        port: 8080
                    - exclude_pat: "*.bak"
                    - file_mode: 640
                    - clean: True
                """.formatted(dest));
        Files.createDirectories(dest);
        Files.writeString(dest.resolve("stale.conf"), "from before\n");
        cluster.startMaster("auto_accept: True", "file_roots:", "  base:", "    - " + fileRoot);
        cluster.startMinion("m1");
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(cluster.jsalt("-t", "5", "m1", "test.ping").exitCode()).isZero());
    }

    @AfterAll
    void stopCluster() {
        cluster.close();
    }

    private Map<?, ?> recurse(String... extra) throws IOException, InterruptedException {
        String[] args = new String[6 + extra.length];
        System.arraycopy(new String[] {"-t", "90", "--out", "json", "m1", "state.apply"}, 0, args, 0, 6);
        System.arraycopy(extra, 0, args, 6, extra.length);
        ClusterHandle.Outcome out = cluster.jsalt(args);
        Map<?, ?> byMinion = (Map<?, ?>) new Load(LoadSettings.builder().build()).loadFromString(out.stdout());
        Map<?, ?> ret = (Map<?, ?>) byMinion.get("m1");
        assertThat(ret).as(out.toString()).isNotNull();
        return (Map<?, ?>) ret.get("file_|-confs_|-" + dest + "_|-recurse");
    }

    @Test
    @Order(1)
    void theFolderComesFromTheMastersFileServerRenderedAndCleaned() throws Exception {
        Map<?, ?> state = recurse("files");
        assertThat(state.get("result")).as(state.toString()).isEqualTo(true);
        assertThat(state.get("comment")).isEqualTo("Recursively updated " + dest);
        Map<?, ?> changes = (Map<?, ?>) state.get("changes");
        assertThat(changes.get(dest.resolve("main.conf").toString())).isEqualTo(Map.of("diff", "New file", "mode", "0640"));
        assertThat(changes.get("removed")).isEqualTo(List.of(dest.resolve("stale.conf").toString()));
        assertThat(Files.readString(dest.resolve("main.conf"))).isEqualTo("host=m1\n");
        assertThat(Files.readString(dest.resolve("sub/port.conf"))).isEqualTo("port=8080\n");
        assertThat(Files.exists(dest.resolve("old.bak"))).isFalse();
        assertThat(Files.exists(dest.resolve("stale.conf"))).isFalse();
        assertThat(Files.exists(dest.getParent().resolve("conf.d2.txt"))).isFalse();
    }

    @Test
    @Order(2)
    void aSecondRunChangesNothing() throws Exception {
        Map<?, ?> state = recurse("files");
        assertThat(state.get("changes")).isEqualTo(Map.of());
        assertThat(state.get("comment")).isEqualTo("The directory " + dest + " is in the correct state");
    }

    @Test
    @Order(3)
    void testModePredictsAChangeMadeOnTheMasterAndTouchesNothing() throws Exception {
        Files.writeString(fileRoot.resolve("web/conf.d/sub/port.conf"), "port={{ port }}\nworkers=4\n");
        Map<?, ?> state = recurse("files", "test=True");
        assertThat(state.get("result")).isNull();
        assertThat(state.get("changes")).isEqualTo(Map.of(dest.resolve("sub/port.conf").toString(),
                Map.of("diff", "--- \n+++ \n@@ -1 +1,2 @@\n port=8080\n+workers=4\n")));
        assertThat(Files.readString(dest.resolve("sub/port.conf"))).isEqualTo("port=8080\n");
    }
}
