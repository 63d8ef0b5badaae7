package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.config.MasterConfig;
import io.jsalt.master.request.ClientKey;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Transport;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.message.RequestEnvelope;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
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

/**
 * The master's runner functions with real master and minion processes, called by a raw client: jobs
 * looked up after {@code jsalt --async}, listed by function, still there after a master restart (the
 * embedded job cache), and {@code manage.status} with one minion stopped.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RunnerEndToEndTest {
    private static final Duration CALL = Duration.ofSeconds(30);
    private static final Duration SIGN_IN = Duration.ofSeconds(90);
    private static final Pattern JID = Pattern.compile("job ID: ([0-9]{20})");

    private Cluster cluster;
    private String echoJid;

    @BeforeAll
    void startCluster(@TempDir Path tmp) throws Exception {
        cluster = new Cluster(tmp);
        cluster.startMaster();
        cluster.startMinion("alpha");
        cluster.startMinion("beta");
        // sign-ins of JVMs started on a loaded machine: long bounds on conditions, a fast machine is not slowed
        await().atMost(SIGN_IN).untilAsserted(() ->
                assertThat(cluster.key("-l", "pre").stdout()).contains("alpha", "beta"));
        assertThat(cluster.key("-A", "-y").exitCode()).isZero();
        await().atMost(SIGN_IN).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Cluster.Result r = cluster.jsalt("-t", "3", "*", "test.ping");
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.stdout()).contains("alpha", "beta");
        });
    }

    @AfterAll
    void stopCluster() {
        cluster.close();
    }

    @Test
    @Order(1)
    void lookupJidGivesTheReturnsOfAnAsyncJob() throws Exception {
        Cluster.Result async = cluster.jsalt("--async", "*", "test.echo", "hello");
        assertThat(async.exitCode()).as(async.toString()).isZero();
        Matcher m = JID.matcher(async.stdout());
        assertThat(m.find()).as(async.toString()).isTrue();
        echoJid = m.group(1);

        try (RawRunnerClient runner = new RawRunnerClient(cluster.masterConfigDir())) {
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(300)).untilAsserted(() ->
                    assertThat(runner.run("jobs.lookup_jid", List.of(echoJid), Map.of(), CALL))
                            .containsEntry("success", true)
                            .containsEntry("return", Map.of("alpha", "hello", "beta", "hello")));
        }
    }

    @Test
    @Order(2)
    void listJobsFiltersByFunction() throws Exception {
        try (RawRunnerClient runner = new RawRunnerClient(cluster.masterConfigDir())) {
            Map<String, Object> load = runner.run("jobs.list_jobs", List.of("search_function=test.echo"), Map.of(), CALL);

            assertThat(load).containsEntry("success", true);
            Map<String, Object> jobs = Wire.map(load, "return");
            assertThat(jobs).containsOnlyKeys(echoJid);
            assertThat(Wire.map(jobs, echoJid)).containsEntry("Function", "test.echo")
                    .containsEntry("Arguments", List.of("hello")).containsEntry("Target", "*");
            assertThat(Wire.map(runner.run("jobs.list_jobs", List.of(), Map.of("search_function", "test.ping"), CALL), "return"))
                    .isNotEmpty().doesNotContainKey(echoJid);
        }
    }

    @Test
    @Order(3)
    void manageStatusSaysWhichMinionIsUpAndWhichIsDown() throws Exception {
        cluster.stopMinion("beta");
        try (RawRunnerClient runner = new RawRunnerClient(cluster.masterConfigDir())) {
            Map<String, Object> load = runner.run("manage.status", List.of(), Map.of("timeout", 4), CALL);

            assertThat(load).as(load.toString()).containsEntry("success", true);
            assertThat(Wire.map(load, "return")).containsEntry("up", List.of("alpha")).containsEntry("down", List.of("beta"));
            assertThat(runner.run("manage.down", List.of(), Map.of("timeout", 4), CALL)).containsEntry("return", List.of("beta"));
        }
    }

    @Test
    @Order(4)
    void theJobCacheSurvivesAMasterRestart() throws Exception {
        cluster.stopMaster();
        cluster.restartMaster();

        try (RawRunnerClient runner = new RawRunnerClient(cluster.masterConfigDir())) {
            assertThat(runner.run("jobs.lookup_jid", List.of(echoJid), Map.of(), CALL))
                    .containsEntry("return", Map.of("alpha", "hello", "beta", "hello"));
            assertThat(Wire.map(runner.run("jobs.list_job", List.of(echoJid), Map.of(), CALL), "return"))
                    .containsEntry("Function", "test.echo").containsEntry("Minions", List.of("alpha", "beta"));
        }
    }

    /**
     * A client of the master's {@code runner} command made from transport classes, as the CLI's
     * MasterConnection talks: a clear load with the client key the master wrote in its cachedir. Its one
     * request socket belongs to the test's thread.
     */
    private static final class RawRunnerClient implements AutoCloseable {
        private final Transport transport = Transport.create();
        private final RequestClient client;
        private final String key;

        RawRunnerClient(Path masterConfigDir) throws IOException {
            MasterConfig config = MasterConfig.load(masterConfigDir);
            this.key = ClientKey.read(config.cachedir(), System.getProperty("user.name"));
            this.client = transport.connectRequestClient("127.0.0.1", config.retPort());
        }

        /** The reply's {@code load}: {@code {"jid", "tag", "fun", "return", "success"}}. */
        Map<String, Object> run(String fun, List<Object> arg, Map<String, Object> kwarg, Duration timeout) {
            Map<String, Object> load = new LinkedHashMap<>();
            load.put("cmd", "runner");
            load.put("fun", fun);
            load.put("arg", arg);
            load.put("kwarg", kwarg);
            load.put("key", key);
            load.put("user", System.getProperty("user.name"));
            byte[] reply = client.request(RequestEnvelope.clear(load).encode(), timeout);
            return Wire.map(Wire.asMap(SaltPack.unpack(reply)), "load");
        }

        @Override
        public void close() {
            client.close();
            transport.close();
        }
    }
}
