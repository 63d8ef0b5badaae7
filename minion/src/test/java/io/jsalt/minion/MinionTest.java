package io.jsalt.minion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.config.MinionConfig;
import io.jsalt.crypto.MinionTok;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.minion.testing.CapturedLogs;
import io.jsalt.minion.testing.FakeMaster;
import io.jsalt.minion.testing.SaltVectors;
import io.jsalt.transport.Transport;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A whole minion instance against a fake master on real sockets: sign-in states, jobs, key rotation, shutdown. */
class MinionTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path root;

    private Transport transport;
    private FakeMaster master;
    private final List<Minion> minions = new ArrayList<>();

    @BeforeEach
    void startFakeMaster() {
        transport = Transport.create();
        master = new FakeMaster(transport);
    }

    @AfterEach
    void stop() {
        minions.forEach(Minion::close);
        master.close();
        transport.close();
    }

    private MinionConfig config(String id, boolean rejectedRetry) throws Exception {
        return config(id, rejectedRetry, master.requestPort());
    }

    private MinionConfig config(String id, boolean rejectedRetry, int masterPort) throws Exception {
        Path instanceRoot = root.resolve(id);
        MinionConfig config = MinionConfig.builder(instanceRoot).id(id)
                .master("127.0.0.1").masterPort(masterPort).publishPort(master.publishPort())
                .acceptanceWaitTime(0.1).authTimeout(2).randomReauthDelay(0).rejectedRetry(rejectedRetry)
                .reconDefault(100).reconRandomize(false).returnRetryTimer(1).returnRetryTimerMax(1)
                .build();
        // the vectors' key, so no test waits for RSA key generation
        Files.createDirectories(config.pkiDir());
        Files.writeString(config.pkiDir().resolve("minion.pem"), SaltVectors.text("keys/minion.pem"));
        Files.writeString(config.pkiDir().resolve("minion.pub"), SaltVectors.text("keys/minion.pub"));
        return config;
    }

    private Minion start(String id) throws Exception {
        return start(config(id, false));
    }

    private Minion start(MinionConfig config) {
        Minion minion = new Minion(config, transport);
        minions.add(minion);
        minion.start();
        return minion;
    }

    private List<Object> returnedJids() {
        return master.loads("_return").stream().map(l -> l.get("jid")).toList();
    }

    private void awaitStartEvents(String id) {
        await().atMost(WAIT).until(() -> master.loads("_minion_event").stream()
                .anyMatch(l -> ("salt/minion/" + id + "/start").equals(l.get("tag"))));
    }

    @Test
    void signsInAnnouncesItselfAndAnswersAJob() throws Exception {
        Minion minion = start("web-1");

        await().atMost(WAIT).until(() -> minion.state() == Minion.State.SIGNED_IN);
        awaitStartEvents("web-1");
        assertThat(master.loads("_minion_event")).extracting(l -> l.get("tag"))
                .containsExactly("minion_start", "salt/minion/web-1/start");
        assertThat(Files.exists(config("web-1", false).pkiDir().resolve("minion_master.pub"))).isTrue();

        master.publish("test.ping", "web-*", "glob", "20260101000000000001");

        await().atMost(WAIT).until(() -> returnedJids().contains("20260101000000000001"));
        Map<String, Object> ret = master.loads("_return").get(0);
        assertThat(ret).containsEntry("id", "web-1").containsEntry("return", true);
    }

    @Test
    void keepsItsTokInPkiDirAndARestartedMinionSendsTheKeptOne() throws Exception {
        MinionConfig config = config("web-1", false);
        Path kept = config.pkiDir().resolve(MinionTok.FILE_NAME);
        Minion first = start(config);
        awaitStartEvents("web-1");
        byte[] tok = (byte[]) master.loads("_minion_event").get(0).get("tok");
        assertThat(Files.readAllBytes(kept)).isEqualTo(tok);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(kept))).isEqualTo("rw-------");
        Object inode = Files.readAttributes(kept, BasicFileAttributes.class).fileKey();
        first.close();

        start(config);
        await().atMost(WAIT).until(() -> master.loads("_minion_event").size() == 4); // both starts' two events


        assertThat(master.loads("_minion_event")).allSatisfy(l -> assertThat((byte[]) l.get("tok")).isEqualTo(tok));
        assertThat(Files.readAttributes(kept, BasicFileAttributes.class).fileKey()).isEqualTo(inode); // read, not written again
    }

    @Test
    void tellsTheMasterItsGrainsBeforeItsStartEventsAndAgainAfterSigningInAgain() throws Exception {
        MinionConfig config = MinionConfig.builder(root.resolve("web-1")).id("web-1").set("grains", Map.of("rack", 7))
                .master("127.0.0.1").masterPort(master.requestPort()).publishPort(master.publishPort())
                .acceptanceWaitTime(0.1).authTimeout(2).randomReauthDelay(0).reconDefault(100).reconRandomize(false).build();
        Files.createDirectories(config.pkiDir());
        Files.writeString(config.pkiDir().resolve("minion.pem"), SaltVectors.text("keys/minion.pem"));
        Files.writeString(config.pkiDir().resolve("minion.pub"), SaltVectors.text("keys/minion.pub"));
        Files.writeString(config.grainsFile(), "roles: [web]\n");
        start(config);
        awaitStartEvents("web-1");

        assertThat(master.cmds().indexOf("_pillar")).isLessThan(master.cmds().indexOf("_minion_event"));
        Map<String, Object> pillar = master.loads("_pillar").get(0);
        assertThat(pillar).containsEntry("id", "web-1").containsEntry("ver", "2");
        @SuppressWarnings("unchecked")
        Map<String, Object> grains = (Map<String, Object>) pillar.get("grains");
        assertThat(grains).containsEntry("id", "web-1").containsEntry("rack", 7L).containsEntry("roles", List.of("web"))
                .containsKeys("os", "kernel");
        assertThat(CapturedLogs.matching("WARN", "web-1: grains not sent")).isEmpty();

        master.rotateSessionKey();
        master.publish("test.ping", "*", "glob", "20260101000000000010");

        await().atMost(WAIT).until(() -> master.loads("_pillar").size() == 2);
    }

    @Test
    void aGrainsWriteJobTellsTheMasterTheNewGrains() throws Exception {
        start("web-1");
        awaitStartEvents("web-1");

        master.publish("grains.setval", List.of("rack", 9), "web-1", "glob", "20260101000000000020", Map.of());

        await().atMost(WAIT).until(() -> master.loads("_pillar").stream()
                .anyMatch(l -> Long.valueOf(9).equals(((Map<?, ?>) l.get("grains")).get("rack"))));
        await().atMost(WAIT).until(() -> returnedJids().contains("20260101000000000020"));
    }

    @Test
    void aMasterThatKeepsRefusingTheSessionIsAskedAgainOnlyAtTheSignInPace() throws Exception {
        master.answerPillarWithBadLoad(true);
        Minion minion = start("web-1");
        await().atMost(WAIT).until(() -> minion.signIns() >= 2);

        // recon_default 100 ms doubling: about six sign-ins in three seconds; without pacing, hundreds
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> minion.signIns() <= 10);
        assertThat(CapturedLogs.matching("WARN", "refused a session it granted")).isNotEmpty();
    }

    @Test
    void syncsModuleJarsFromTheMastersFileServerAndRunsThem(@TempDir Path fileRoots, @TempDir Path work) throws Exception {
        master.serveFiles(fileRoots, 4096);
        io.jsalt.minion.testing.ModuleJarBuilder.build(fileRoots.resolve("base/_modules/hello.jar"), work, "hello", "world", "hello from the master");
        start("web-1");
        awaitStartEvents("web-1");

        master.publish("saltutil.sync_modules", "*", "glob", "20260101000000000011");
        await().atMost(WAIT).until(() -> returnedJids().contains("20260101000000000011"));
        master.publish("hello.world", "*", "glob", "20260101000000000012");
        await().atMost(WAIT).until(() -> returnedJids().contains("20260101000000000012"));

        assertThat(returnOf("20260101000000000011")).containsEntry("return", List.of("modules.hello"));
        assertThat(returnOf("20260101000000000012")).containsEntry("return", "hello from the master");
    }

    @Test
    void listsARunningJobAndKillsItWithoutAReturn() throws Exception {
        start("web-1");
        awaitStartEvents("web-1");

        master.publish("test.sleep", List.of(30), "*", "glob", "20260101000000000013", Map.of());
        // each job starts on a thread of its own, so a job published later may run first: ask until it is listed
        List<Map<String, Object>> jobs = List.of();
        for (int n = 0; n < 20 && jobs.stream().noneMatch(job -> "20260101000000000013".equals(job.get("jid"))); n++) {
            String jid = String.format("202601010000000001%02d", n);
            master.publish("saltutil.running", "*", "glob", jid);
            await().atMost(WAIT).until(() -> returnedJids().contains(jid));
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> listed = (List<Map<String, Object>>) returnOf(jid).get("return");
            jobs = listed;
        }
        assertThat(jobs).anySatisfy(job ->
                assertThat(job).containsEntry("jid", "20260101000000000013").containsEntry("fun", "test.sleep"));

        master.publish("saltutil.kill_job", List.of("20260101000000000013"), "*", "glob", "20260101000000000015", Map.of());
        await().atMost(WAIT).until(() -> returnedJids().contains("20260101000000000015"));
        assertThat((String) returnOf("20260101000000000015").get("return")).startsWith("Signal 9 sent to job 20260101000000000013");

        master.publish("saltutil.find_job", List.of("20260101000000000013"), "*", "glob", "20260101000000000016", Map.of());
        await().atMost(WAIT).until(() -> returnedJids().contains("20260101000000000016"));
        assertThat(returnOf("20260101000000000016")).containsEntry("return", Map.of());
        assertThat(returnedJids()).doesNotContain("20260101000000000013");
    }

    private Map<String, Object> returnOf(String jid) {
        return master.loads("_return").stream().filter(l -> jid.equals(l.get("jid"))).findFirst().orElseThrow();
    }

    @Test
    void staysPendingAndAsksAgainUntilItsKeyIsAccepted() throws Exception {
        master.answerAuth(FakeMaster.Mode.PENDING);
        Minion minion = start("web-1");

        await().atMost(WAIT).until(() -> master.auths().size() >= 3);
        assertThat(minion.state()).isEqualTo(Minion.State.PENDING);

        master.answerAuth(FakeMaster.Mode.ACCEPT);

        await().atMost(WAIT).until(() -> minion.state() == Minion.State.SIGNED_IN);
        awaitStartEvents("web-1");
    }

    @Test
    void stopsForGoodWhenItsKeyIsRejected() throws Exception {
        master.answerAuth(FakeMaster.Mode.REJECT);
        Minion minion = start("web-1");

        assertThat(minion.terminated().get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("rejected");
        assertThat(minion.state()).isEqualTo(Minion.State.REJECTED);
        assertThat(CapturedLogs.matching("ERROR", "jsalt-key -d web-1")).isNotEmpty();
        assertThat(master.auths()).hasSize(1);
    }

    @Test
    void withRejectedRetryKeepsAskingAfterARejection() throws Exception {
        master.answerAuth(FakeMaster.Mode.REJECT);
        Minion minion = start(config("web-2", true));

        await().atMost(WAIT).until(() -> master.auths().size() >= 2);
        assertThat(minion.state()).isEqualTo(Minion.State.REJECTED);
        assertThat(minion.terminated()).isNotDone();
    }

    @Test
    void refusesAMasterWhoseKeyIsNotThePinnedOneAndKeepsRunning() throws Exception {
        MinionConfig config = config("wary", false);
        RsaKeys.writePublicKey(config.pkiDir().resolve("minion_master.pub"), SaltVectors.minionKeyPair().getPublic());
        Minion minion = start(config);

        await().atMost(WAIT).until(() -> minion.state() == Minion.State.MASTER_REFUSED);
        assertThat(CapturedLogs.matching("ERROR", "wary: refusing to sign in: the master presented a key other than the one pinned"))
                .isNotEmpty();
        assertThat(minion.terminated()).isNotDone();
        assertThat(master.loads("_minion_event")).isEmpty();
    }

    @Test
    void afterTheMasterRotatesItsKeySignsInAgainAndRunsTheJobItCouldNotRead() throws Exception {
        Minion minion = start("web-1");
        await().atMost(WAIT).until(() -> minion.state() == Minion.State.SIGNED_IN);
        awaitStartEvents("web-1");

        master.rotateSessionKey();
        master.publish("test.ping", "*", "glob", "20260101000000000002");

        await().atMost(WAIT).until(() -> returnedJids().contains("20260101000000000002"));
        assertThat(master.auths()).hasSize(2);
        assertThat(master.auths().get(1).token()).as("the master key is pinned now, so a token is sent").isNotNull();
        assertThat(master.loads("_minion_event")).as("start events are sent once").hasSize(2);
    }

    @Test
    void manyMinionsShareOneTransportAndEachAnswersForItself() throws Exception {
        List<Minion> started = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            started.add(start("node-" + i));
        }
        for (Minion m : started) {
            awaitStartEvents(m.id());
        }

        master.publish("test.ping", "node-[24]", "glob", "20260101000000000003");

        await().atMost(WAIT).until(() -> returnedJids().size() >= 2);
        assertThat(master.loads("_return")).extracting(l -> l.get("id")).containsExactlyInAnyOrder("node-2", "node-4");
    }

    @Test
    void closeStopsItsThreadsAndCompletesTermination() throws Exception {
        Minion minion = start("web-1");
        awaitStartEvents("web-1");

        minion.close();

        assertThat(minion.state()).isEqualTo(Minion.State.STOPPED);
        assertThat(minion.terminated()).isCompletedWithValue("stopped");
        await().atMost(WAIT).until(() -> Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                .noneMatch(t -> t.getName().equals("jsalt-minion-web-1") || t.getName().equals("jsalt-job-web-1")));
    }

    @Test
    void closingAMinionWaitingOnASilentMasterLeavesTheSharedTransportWorkingForOthers() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Minion stuck = new Minion(config("waiting", false, silent.getLocalPort()), transport);
            stuck.start();
            await().atMost(WAIT).until(() -> Thread.getAllStackTraces().entrySet().stream()
                    .anyMatch(e -> e.getKey().getName().equals("jsalt-minion-waiting")
                            && Arrays.stream(e.getValue()).anyMatch(f -> f.getMethodName().equals("request"))));

            stuck.close();
        }

        start("web-1");
        awaitStartEvents("web-1");
        master.publish("test.ping", "web-1", "glob", "20260101000000000004");
        await().atMost(WAIT).until(() -> returnedJids().contains("20260101000000000004"));
    }
}
