package io.jsalt.e2e.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * A real salt-minion 3006.8 joined to a jsalt master with pillar_roots: the pillar the salt-minion holds and the
 * fresh one it asks for ({@code pillar.items}, answered by the salt-minion itself) are what jsalt compiled for it,
 * rendered with its own grains; a jsalt minion beside it gets its own pillar and never the salt-minion's; and
 * {@code -I} reaches the salt-minion by that pillar.
 */
@Tag("interop")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SaltMinionPillarInteropTest {
    Processes processes;
    JsaltSide jsalt;
    SaltSide salt;

    @BeforeAll
    void startFleet(@TempDir Path tmp) throws Exception {
        processes = new Processes();
        jsalt = new JsaltSide(processes, tmp.resolve("j"));
        salt = new SaltSide(processes, tmp.resolve("s")); // short: Salt's IPC socket paths must fit 107 bytes
        RealSalt.env();
        // pillar_roots outside the master's root_dir (tmp/j): as Salt's, root_dir does not prefix it
        Path pillarRoot = Files.createDirectories(tmp.resolve("pillar"));
        Files.writeString(pillarRoot.resolve("top.sls"), """
                base:
                  '*':
                    - common
                  'sm1':
                    - only_sm1
                """);
        Files.writeString(pillarRoot.resolve("common.sls"), "host: {{ grains['id'] }} on {{ grains['kernel'] }}\n");
        Files.writeString(pillarRoot.resolve("only_sm1.sls"), "db:\n  password: for-sm1-alone\n");
        jsalt.startMaster("auto_accept: True", "pillar_roots:", "  base:", "    - " + pillarRoot);
        salt.startMinion("sm1", jsalt.publishPort(), jsalt.retPort());
        jsalt.startMinion("jm1", jsalt.publishPort(), jsalt.retPort());
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).until(() -> {
            Processes.Result r = jsalt.jsalt("-t", "3", "-L", "sm1,jm1", "test.ping", "--out", "json", "--static");
            return r.exitCode() == 0 && Json.object(r.stdout()).equals(Map.of("sm1", true, "jm1", true));
        });
    }

    @AfterAll
    void stopFleet() {
        processes.close();
    }

    @Test
    @Order(1)
    void theSaltMinionAnswersWithThePillarJsaltCompiledForIt() throws Exception {
        assertThat(json("sm1", "pillar.items")).isEqualTo(Map.of("sm1",
                Map.of("host", "sm1 on Linux", "db", Map.of("password", "for-sm1-alone"))));
        assertThat(json("sm1", "pillar.get", "db:password")).isEqualTo(Map.of("sm1", "for-sm1-alone"));
    }

    @Test
    @Order(2)
    void theJsaltMinionBesideItGetsItsOwnPillarOnly() throws Exception {
        assertThat(json("jm1", "pillar.items")).isEqualTo(Map.of("jm1", Map.of("host", "jm1 on Linux")));
        assertThat(json("jm1", "pillar.get", "db:password")).isEqualTo(Map.of("jm1", ""));
    }

    @Test
    @Order(3)
    void pillarTargetsReachTheSaltMinion() throws Exception {
        assertThat(json("-I", "db:password:for-sm1*", "test.ping")).isEqualTo(Map.of("sm1", true));
        assertThat(json("-C", "I@host:jm1* or I@db:password:for-sm1-alone", "test.ping"))
                .isEqualTo(Map.of("sm1", true, "jm1", true));
    }

    private Map<String, Object> json(String... args) throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(List.of("-t", "30"));
        all.addAll(List.of(args));
        all.addAll(List.of("--out", "json", "--static"));
        Processes.Result r = jsalt.jsalt(all.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return Json.object(r.stdout());
    }
}
