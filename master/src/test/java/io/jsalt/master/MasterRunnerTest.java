package io.jsalt.master;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.config.MasterConfig;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.master.events.LocalEventClient;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.request.ClientKey;
import io.jsalt.master.support.HandMadeMinion;
import io.jsalt.master.support.TestKeys;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Transport;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.event.EventFrame;
import io.jsalt.transport.message.PublishRequest;
import io.jsalt.transport.message.RequestEnvelope;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code runner} command and the file server of a whole master on loopback ports, with one hand-made
 * minion that answers and one accepted minion that never connects.
 */
class MasterRunnerTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String UP = "hand-made";
    private static final String DOWN = "sleeper";
    private static final String RUNNING_JID = "20260101000000000001";

    @TempDir
    Path root;
    Transport transport;
    final List<AutoCloseable> toClose = new ArrayList<>();
    MasterConfig config;
    Master master;
    RequestClient client;
    HandMadeMinion minion;
    String secret;

    @BeforeEach
    void setUp() throws Exception {
        transport = Transport.create();
        int publishPort = freePort();
        int retPort = freePort();
        while (retPort == publishPort) {
            retPort = freePort();
        }
        config = MasterConfig.builder(root).interfaceAddress("127.0.0.1").publishPort(publishPort).retPort(retPort)
                .workerThreads(2).autoAccept(true).timeout(3).set("gather_job_timeout", 1).build();
        Files.createDirectories(config.pkiDir());
        Path pem = config.pkiDir().resolve("master.pem");
        Files.writeString(pem, TestKeys.masterPrivatePem());
        Files.setPosixFilePermissions(pem, PosixFilePermissions.fromString("r--------"));
        master = new Master(config, Transport::create);
        master.start();
        toClose.add(master);
        master.keys().store(KeyState.ACCEPTED, DOWN, TestKeys.pem(TestKeys.minion(2)));
        PublicKey masterPub = RsaKeys.readPublicKey(config.pkiDir().resolve("master.pub"));
        minion = HandMadeMinion.start(UP, TestKeys.minion(1), transport, master.requestPort(), master.publishPort(),
                masterPub, MasterRunnerTest::answer);
        toClose.add(minion);
        client = transport.connectRequestClient("127.0.0.1", master.requestPort());
        toClose.add(client);
        secret = ClientKey.read(config.cachedir(), System.getProperty("user.name"));
    }

    @AfterEach
    void tearDown() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
        transport.close();
    }

    /** What the hand-made minion answers: a ping, and one long job it says it is running. */
    private static Object answer(Map<String, Object> job) {
        return switch (Wire.string(job, "fun")) {
            case "test.ping" -> true;
            case "saltutil.running" -> {
                Map<String, Object> proc = new LinkedHashMap<>();
                proc.put("jid", RUNNING_JID);
                proc.put("fun", "test.sleep");
                proc.put("arg", List.of(300L));
                proc.put("tgt", "*");
                proc.put("tgt_type", "glob");
                proc.put("user", "root");
                proc.put("pid", 4242L);
                yield List.of(proc);
            }
            default -> "'" + Wire.string(job, "fun") + "' is not available.";
        };
    }

    @Test
    void manageStatusPingsEveryAcceptedMinionAndSaysWhoAnswered() {
        Map<String, Object> load = runner("manage.status", List.of(), Map.of("timeout", 2));

        assertThat(load).containsEntry("success", true);
        assertThat(Wire.map(load, "return")).containsEntry("up", List.of(UP)).containsEntry("down", List.of(DOWN));
        List<Job> pings = master.jobs().jobsBetween(null, null).stream().filter(j -> j.fun().equals("test.ping")).toList();
        assertThat(pings).singleElement().satisfies(j -> assertThat(j.minions()).containsExactlyInAnyOrder(UP, DOWN));
        assertThat(master.jobs().returns(pings.get(0).jid())).extracting(r -> r.id()).containsExactly(UP);
    }

    @Test
    void aPingWaitsNoLongerThanItsTimeoutForASilentMinionAndEndsOnceEveryMinionAnswered() {
        long start = System.nanoTime();
        assertThat(runner("manage.status", List.of("timeout=3"), Map.of())).containsEntry("success", true);
        Duration withSilent = Duration.ofNanos(System.nanoTime() - start);
        assertThat(withSilent).isBetween(Duration.ofSeconds(3), Duration.ofSeconds(9));

        master.keys().delete(DOWN);
        start = System.nanoTime();
        Map<String, Object> load = runner("manage.status", List.of(), Map.of("timeout", 60));
        Duration allAnswered = Duration.ofNanos(System.nanoTime() - start);

        assertThat(Wire.map(load, "return")).containsEntry("up", List.of(UP)).containsEntry("down", List.of());
        assertThat(allAnswered).isLessThan(Duration.ofSeconds(15));
    }

    @Test
    void manageDownWithRemovekeysDeletesTheKeysOfTheSilentMinions() {
        assertThat(runner("manage.up", List.of("timeout=2"), Map.of())).containsEntry("return", List.of(UP));

        Map<String, Object> load = runner("manage.down", List.of("removekeys=True"), Map.of("timeout", 2));

        assertThat(load).containsEntry("return", List.of(DOWN));
        assertThat(master.keys().stateOf(DOWN)).isEmpty();
        assertThat(master.keys().stateOf(UP)).contains(KeyState.ACCEPTED);
    }

    @Test
    void presenceFunctionsReadTheSubscriptionsWithoutPinging() {
        int jobsBefore = master.jobs().jobsBetween(null, null).size();

        // the publish socket learns of the subscription a moment after the handshake
        org.awaitility.Awaitility.await().atMost(WAIT).untilAsserted(() ->
                assertThat(runner("manage.present", List.of(), Map.of())).containsEntry("return", List.of(UP)));
        assertThat(runner("manage.not_present", List.of(), Map.of())).containsEntry("return", List.of(DOWN));
        assertThat(master.jobs().jobsBetween(null, null)).hasSize(jobsBefore);
    }

    @Test
    void jobsActiveShowsWhatTheMinionsAreRunning() {
        long start = System.nanoTime();
        Map<String, Object> load = runner("jobs.active", List.of(), Map.of());

        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("waits the master's timeout (3 s) for the silent minion,"
                + " as Salt's jobs.active, not gather_job_timeout (1 s)").isGreaterThanOrEqualTo(Duration.ofSeconds(3));

        assertThat(load).containsEntry("success", true);
        Map<String, Object> active = Wire.map(load, "return");
        assertThat(active).containsOnlyKeys(RUNNING_JID);
        assertThat(Wire.map(active, RUNNING_JID)).containsEntry("Function", "test.sleep")
                .containsEntry("Arguments", List.of(300L)).containsEntry("Target", "*")
                .containsEntry("StartTime", "2026, Jan 01 00:00:00.000001")
                .containsEntry("Running", List.of(Map.of(UP, 4242L))).containsEntry("Returned", List.of());
    }

    @Test
    void lookupJidGivesTheReturnsOfAPublishedJob() throws Exception {
        Map<String, Object> published = Wire.map(Wire.asMap(SaltPack.unpack(client.request(RequestEnvelope.clear(
                new PublishRequest("*", "test.ping", List.of(), "glob", "tester", secret, Map.of()).toLoad()).encode(),
                WAIT))), "load");
        String jid = Wire.string(published, "jid");
        org.awaitility.Awaitility.await().atMost(WAIT).until(() -> !master.jobs().returns(jid).isEmpty());

        assertThat(runner("jobs.lookup_jid", List.of(jid), Map.of())).containsEntry("return", Map.of(UP, true));
        assertThat(runner("jobs.lookup_jid", List.of(jid, "missing=True"), Map.of()))
                .containsEntry("return", Map.of(UP, true, DOWN, "Minion did not return"));
        Map<String, Object> listed = Wire.map(runner("jobs.list_jobs", List.of(), Map.of("search_function", "test.*")), "return");
        assertThat(listed).containsKey(jid);
        assertThat(Wire.map(listed, jid)).containsEntry("User", "tester").containsEntry("Function", "test.ping");
    }

    @Test
    void targetPreviewSaysWhomATargetReachesWithoutPublishing() {
        int jobsBefore = master.jobs().jobsBetween(null, null).size();

        Map<String, Object> load = runner("target.preview", List.of("hand-*"), Map.of());
        Map<String, Object> list = runner("target.preview", List.of("hand-made,ghost"), Map.of("tgt_type", "list"));

        assertThat(Wire.map(load, "return")).containsEntry("minions", List.of(UP)).containsEntry("missing", List.of());
        assertThat(Wire.map(list, "return")).containsEntry("minions", List.of(UP)).containsEntry("missing", List.of("ghost"));
        assertThat(master.jobs().jobsBetween(null, null)).hasSize(jobsBefore);
        assertThat(runner("target.preview", List.of("web["), Map.of("tgt_type", "pcre"))).containsEntry("success", false);
    }

    @Test
    void firesTheRunnersEventsOnTheLocalBus() throws Exception {
        try (LocalEventClient events = LocalEventClient.connect(config.sockDir(), WAIT)) {
            String jid = Wire.string(runner("jobs.lookup_jid", List.of("20200101000000000000"), Map.of()), "jid");

            List<String> tags = new ArrayList<>();
            while (!tags.contains("salt/run/" + jid + "/ret")) {
                Optional<EventFrame> e = events.next(WAIT);
                assertThat(e).as("events so far: %s", tags).isPresent();
                tags.add(e.get().tag());
                if (e.get().tag().equals("salt/run/" + jid + "/ret")) {
                    assertThat(e.get().data()).containsEntry("return", Map.of()).containsEntry("fun", "runner.jobs.lookup_jid")
                            .containsEntry("success", true).containsEntry("user", "tester");
                }
            }
            assertThat(tags).contains("salt/run/" + jid + "/new");
        }
    }

    @Test
    void refusesAWrongClientKeyAndNamesUnknownFunctions() {
        Map<String, Object> bad = new LinkedHashMap<>();
        bad.put("cmd", "runner");
        bad.put("fun", "manage.present");
        bad.put("key", "guess");
        Map<String, Object> refused = Wire.asMap(SaltPack.unpack(client.request(RequestEnvelope.clear(bad).encode(), WAIT)));

        assertThat(Wire.map(refused, "load")).containsEntry("error", "Authentication error occurred.");
        assertThat(runner("state.highstate", List.of(), Map.of())).containsEntry("success", false)
                .containsEntry("return", "'state.highstate' is not available.");
        assertThat(runner("jobs.lookup_jid", List.of(), Map.of())).containsEntry("success", false)
                .containsEntry("return", "jobs.lookup_jid(jid, ext_source=None, returned=True, missing=False, display_progress=False):"
                        + " missing required argument 'jid'");
    }

    @Test
    void servesFilesToASignedInMinion() throws Exception {
        Path srv = root.resolve("srv/jsalt");
        Files.createDirectories(srv.resolve("_modules"));
        Files.writeString(srv.resolve("_modules/a.jar"), "jar bytes");

        assertThat(minion.request(load("cmd", "_file_list", "saltenv", "base", "prefix", "_modules")))
                .isEqualTo(List.of("_modules/a.jar"));
        assertThat(minion.request(load("cmd", "_file_hash", "saltenv", "base", "path", "_modules/a.jar")))
                .isEqualTo(Map.of("hsum", sha256("jar bytes"), "hash_type", "sha256"));
        assertThat(minion.request(load("cmd", "_serve_file", "saltenv", "base", "path", "_modules/a.jar", "loc", 4)))
                .isEqualTo(Map.of("data", "bytes", "dest", "_modules/a.jar"));
        assertThat(minion.request(load("cmd", "_serve_file", "saltenv", "base", "path", "../../etc/passwd", "loc", 0)))
                .isEqualTo(Map.of("data", "", "dest", ""));
        assertThat(minion.request(load("cmd", "_file_list", "saltenv", "nowhere", "prefix", ""))).isEqualTo(List.of());
    }

    private Map<String, Object> runner(String fun, List<Object> arg, Map<String, Object> kwarg) {
        return runnerOn(client, fun, arg, kwarg);
    }

    private Map<String, Object> runnerOn(RequestClient client, String fun, List<Object> arg, Map<String, Object> kwarg) {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "runner");
        load.put("fun", fun);
        load.put("arg", arg);
        load.put("kwarg", kwarg);
        load.put("key", secret);
        load.put("user", "tester");
        Map<String, Object> reply = Wire.asMap(SaltPack.unpack(client.request(RequestEnvelope.clear(load).encode(), WAIT)));
        assertThat(reply).containsEntry("enc", "clear");
        return Wire.map(reply, "load");
    }

    private static Map<String, Object> load(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    private static String sha256(String text) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
