package io.jsalt.minion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.config.MinionConfig;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.minion.testing.CapturedLogs;
import io.jsalt.minion.testing.FakeMaster;
import io.jsalt.minion.testing.SaltVectors;
import io.jsalt.transport.Transport;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
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
