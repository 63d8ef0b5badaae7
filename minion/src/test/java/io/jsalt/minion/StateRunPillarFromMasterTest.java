package io.jsalt.minion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.config.MinionConfig;
import io.jsalt.minion.testing.CapturedLogs;
import io.jsalt.minion.testing.FakeMaster;
import io.jsalt.minion.testing.SaltVectors;
import io.jsalt.transport.Transport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole minion against a master that is slow with its pillar (real sockets): a sign-in whose {@code _pillar} timed
 * out is tried again in the background, and a state run renders with the pillar the master compiles for it, or not at
 * all when the master never sends one.
 */
class StateRunPillarFromMasterTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** Longer than the minion's auth_timeout (1 s): the minion has given up on the request by then. */
    private static final Duration LATE = Duration.ofMillis(2500);

    @TempDir
    Path root;
    @TempDir
    Path fileRoots;
    @TempDir
    Path target;

    private Transport transport;
    private FakeMaster master;
    private Minion minion;
    private final AtomicLong jids = new AtomicLong(100);

    @BeforeEach
    void startFakeMaster() throws Exception {
        transport = Transport.create();
        master = new FakeMaster(transport);
        master.serveFiles(fileRoots, 4096);
        Files.createDirectories(fileRoots.resolve("base"));
        Files.writeString(fileRoots.resolve("base/app.sls"), "conf:\n  file.managed:\n    - name: " + target.resolve("app.conf")
                + "\n    - contents: \"port={{ pillar.app.port }}\"\n");
        Files.writeString(fileRoots.resolve("base/lookup.sls"), "conf:\n  file.managed:\n    - name: " + target.resolve("lookup.conf")
                + "\n    - contents: \"port={{ salt['pillar.get']('app:port') }} raw={{ salt['pillar.raw']('app') }}\"\n");
    }

    @AfterEach
    void stop() {
        if (minion != null) {
            minion.close();
        }
        master.close();
        transport.close();
    }

    private void start() throws Exception {
        MinionConfig config = MinionConfig.builder(root).id("slowpillar")
                .master("127.0.0.1").masterPort(master.requestPort()).publishPort(master.publishPort())
                .acceptanceWaitTime(0.1).authTimeout(1).randomReauthDelay(0).reconDefault(100).reconRandomize(false)
                .returnRetryTimer(1).returnRetryTimerMax(1).build();
        Files.createDirectories(config.pkiDir());
        Files.writeString(config.pkiDir().resolve("minion.pem"), SaltVectors.text("keys/minion.pem"));
        Files.writeString(config.pkiDir().resolve("minion.pub"), SaltVectors.text("keys/minion.pub"));
        minion = new Minion(config, transport, List.of(Duration.ofMillis(300), Duration.ofMillis(600)));
        minion.start();
        await().atMost(WAIT).until(() -> master.loads("_minion_event").stream()
                .anyMatch(l -> "salt/minion/slowpillar/start".equals(l.get("tag"))));
    }

    /** Publishes {@code fun} as a new job and waits for its return load. */
    private Map<String, Object> call(String fun, Object... args) {
        String jid = String.format("20260101000000%06d", jids.incrementAndGet());
        master.publish(fun, List.of(args), "*", "glob", jid, Map.of());
        await().atMost(WAIT).until(() -> master.loads("_return").stream().anyMatch(l -> jid.equals(l.get("jid"))));
        return master.loads("_return").stream().filter(l -> jid.equals(l.get("jid"))).findFirst().orElseThrow();
    }

    private static Map<String, Object> port(long port) {
        return Map.of("app", Map.of("port", port));
    }

    @Test
    void aSignInWhosePillarTimedOutTriesAgainAndEveryStateRunAsksTheMasterAfresh() throws Exception {
        master.answerPillar(port(8080));
        master.holdPillars(1, LATE);
        start();

        // the sign-in's request timed out: said so, and tried again in the background until the pillar came
        await().atMost(WAIT).until(() -> !CapturedLogs.matching("WARN",
                "slowpillar: grains not sent to the master, and no pillar from it: no answer").isEmpty());
        await().atMost(WAIT).until(() -> port(8080).equals(call("pillar.raw").get("return")));

        // the master's pillar changed and its first answer is late again: the run asks again and renders with the new one
        master.answerPillar(port(9090));
        master.holdPillars(1, LATE);
        int pillarsBefore = master.loads("_pillar").size();
        Map<String, Object> run = call("state.sls", "app");

        assertThat(run.get("retcode")).as(run.toString()).isEqualTo(0L);
        assertThat(Files.readString(target.resolve("app.conf"))).isEqualTo("port=9090\n");
        assertThat(master.loads("_pillar").size() - pillarsBefore).isEqualTo(2);
        // and the minion keeps it, as a refresh would
        assertThat(call("pillar.raw").get("return")).isEqualTo(port(9090));
    }

    @Test
    void aStateRunWhoseMasterNeverSendsThePillarAppliesNothingAndSaysWhy() throws Exception {
        master.answerPillar(port(8080));
        start();
        assertThat(call("pillar.raw").get("return")).isEqualTo(port(8080));

        master.holdPillars(Integer.MAX_VALUE, LATE);
        Map<String, Object> run = call("state.sls", "app");

        assertThat(run.get("retcode")).as(run.toString()).isEqualTo(1L);
        assertThat(run.get("success")).isEqualTo(false);
        assertThat(run.get("return")).asList().singleElement().asString()
                .startsWith("The state run did not start: no pillar from the master for this state run (3 tries): no answer from")
                .endsWith("within 1000 ms");
        assertThat(Files.exists(target.resolve("app.conf"))).isFalse();
        // the pillar in memory is left as it was
        assertThat(call("pillar.raw").get("return")).isEqualTo(port(8080));
    }

    @Test
    void aTemplatesPillarModuleReadsTheRunsPillarWithItsOverrideAsSaltsDoes() throws Exception {
        master.answerPillar(port(8080));
        start();
        assertThat(call("pillar.raw").get("return")).isEqualTo(port(8080));

        Map<String, Object> run = call("state.sls", "lookup", Map.of("pillar", port(7070), "__kwarg__", true));

        assertThat(run.get("retcode")).as(run.toString()).isEqualTo(0L);
        assertThat(Files.readString(target.resolve("lookup.conf"))).isEqualTo("port=7070 raw={'port': 7070}\n");
        // outside the run, the minion's own pillar again: the override was for that run only
        assertThat(call("pillar.get", "app:port").get("return")).isEqualTo(8080L);
    }
}
