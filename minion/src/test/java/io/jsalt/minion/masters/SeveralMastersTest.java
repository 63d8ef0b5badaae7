package io.jsalt.minion.masters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.config.MinionConfig;
import io.jsalt.minion.Minion;
import io.jsalt.minion.testing.CapturedLogs;
import io.jsalt.minion.testing.FakeMaster;
import io.jsalt.minion.testing.SaltVectors;
import io.jsalt.transport.Transport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole minion with {@code master: [m1, m2]} against two fake masters on real sockets (they share the vectors'
 * master key, as Salt's multi-master requires): hot/hot takes every master's jobs and answers each to its
 * sender, runs a job two masters both send once, hands a dead master's return to the survivor, and asks the next
 * master for a pillar or a file one master refuses; failover
 * signs in to one master, moves to the next when it goes away, and goes back with master_failback.
 */
class SeveralMastersTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path root;

    private Transport transport;
    private final List<FakeMaster> masters = new ArrayList<>();
    private final List<Minion> minions = new ArrayList<>();
    private FakeMaster m1;
    private FakeMaster m2;

    @BeforeEach
    void startMasters() {
        transport = Transport.create();
        m1 = master(new FakeMaster(transport));
        m2 = master(new FakeMaster(transport));
    }

    @AfterEach
    void stop() {
        minions.forEach(Minion::close);
        masters.forEach(FakeMaster::close);
        transport.close();
    }

    private FakeMaster master(FakeMaster m) {
        masters.add(m);
        return m;
    }

    private Minion start(String id, Object... extra) throws Exception {
        var builder = MinionConfig.builder(root.resolve(id)).id(id)
                .set("master", List.of("127.0.0.1:" + m1.requestPort(), "127.0.0.1:" + m2.requestPort()))
                .acceptanceWaitTime(0.1).authTimeout(3).randomReauthDelay(0).reconDefault(100).reconRandomize(false)
                .returnRetryTimer(1).returnRetryTimerMax(1);
        for (int i = 0; i < extra.length; i += 2) {
            builder.set((String) extra[i], extra[i + 1]);
        }
        MinionConfig config = builder.build();
        Files.createDirectories(config.pkiDir());
        Files.writeString(config.pkiDir().resolve("minion.pem"), SaltVectors.text("keys/minion.pem"));
        Files.writeString(config.pkiDir().resolve("minion.pub"), SaltVectors.text("keys/minion.pub"));
        Minion minion = new Minion(config, transport);
        minions.add(minion);
        minion.start();
        return minion;
    }

    /** Signed in to these masters, and each has the start event (sent once the publish connection is up). */
    private static void awaitStarted(Minion minion, FakeMaster... to) {
        await().atMost(WAIT).until(() -> minion.signedInTo().size() == to.length);
        for (FakeMaster m : to) {
            await().atMost(WAIT).until(() -> m.loads("_minion_event").stream()
                    .anyMatch(l -> ("salt/minion/" + minion.id() + "/start").equals(l.get("tag"))));
        }
    }

    private static String address(FakeMaster m) {
        return "127.0.0.1:" + m.requestPort();
    }

    private static List<Object> returned(FakeMaster m) {
        return m.loads("_return").stream().map(l -> l.get("jid")).toList();
    }

    @Test
    void hotHotTakesEveryMastersJobsAndAnswersEachToItsSender() throws Exception {
        Minion minion = start("web-1");
        awaitStarted(minion, m1, m2);

        m1.publish("test.ping", "web-*", "glob", "20260101000000000001");
        m2.publish("test.ping", "web-*", "glob", "20260101000000000002");

        await().atMost(WAIT).until(() -> returned(m1).contains("20260101000000000001") && returned(m2).contains("20260101000000000002"));
        assertThat(returned(m1)).containsExactly("20260101000000000001");
        assertThat(returned(m2)).containsExactly("20260101000000000002");
        assertThat(m1.loads("_pillar")).as("each master learns the grains").isNotEmpty();
        assertThat(m2.loads("_pillar")).isNotEmpty();
        assertThat(m1.loads("_minion_event")).extracting(l -> l.get("tag")).contains("salt/minion/web-1/start");
        assertThat(m2.loads("_minion_event")).extracting(l -> l.get("tag")).contains("salt/minion/web-1/start");
    }

    @Test
    void aJobBothMastersSendRunsOnceAndIsAnsweredOnce() throws Exception {
        Minion minion = start("web-1");
        awaitStarted(minion, m1, m2);

        m1.publish("test.echo", List.of("once"), "web-1", "glob", "20260101000000000003", Map.of());
        m2.publish("test.echo", List.of("once"), "web-1", "glob", "20260101000000000003", Map.of());

        await().atMost(WAIT).until(() -> returned(m1).size() + returned(m2).size() == 1);
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4))
                .until(() -> returned(m1).size() + returned(m2).size() == 1);
    }

    @Test
    void aReturnWhoseMasterDiedMidJobGoesToTheOtherMaster() throws Exception {
        Minion minion = start("web-1");
        awaitStarted(minion, m1, m2);

        m1.publish("test.sleep", List.of(1), "web-1", "glob", "20260101000000000004", Map.of());
        awaitRunning("web-1");
        m1.close();

        await().atMost(WAIT).until(() -> returned(m2).contains("20260101000000000004"));
        assertThat(returned(m1)).isEmpty();
    }

    /** Until the minion's proc folder lists a running job. */
    private void awaitRunning(String id) {
        Path proc = root.resolve(id).resolve("var/cache/jsalt/minion/proc");
        await().atMost(WAIT).until(() -> Files.isDirectory(proc) && !io.jsalt.minion.testing.Listing.of(proc).isEmpty());
    }

    @Test
    void anotherMastersRefusalKeepsTheReturnForTheJobsOwnMasterUntilItIsBack() throws Exception {
        Minion minion = start("web-1");
        awaitStarted(minion, m1, m2);
        m2.answerReturns(false); // m2 does not know m1's job (a job cache of its own)
        int requestPort = m1.requestPort();
        int publishPort = m1.publishPort();

        m1.publish("test.sleep", List.of(1), "web-1", "glob", "20260101000000000005", Map.of());
        awaitRunning("web-1");
        m1.close();
        await().atMost(WAIT).until(() -> returned(m2).contains("20260101000000000005"));
        await().atMost(WAIT).until(() -> !CapturedLogs.matching("INFO", "refused the return of job 20260101000000000005 of another master")
                .isEmpty());

        FakeMaster back = master(await().atMost(WAIT).ignoreExceptions()
                .until(() -> new FakeMaster(transport, requestPort, publishPort), m -> true));
        await().atMost(WAIT).until(() -> returned(back).contains("20260101000000000005"));
        assertThat(returned(m2)).as("m2 was not asked again").containsExactly("20260101000000000005");
    }

    /** The return {@code m} received for {@code jid}. */
    private static Object returnValue(FakeMaster m, String jid) {
        return m.loads("_return").stream().filter(l -> jid.equals(l.get("jid"))).findFirst().orElseThrow().get("return");
    }

    @Test
    void aPillarOneMasterRefusesIsAskedOfTheNextMaster() throws Exception {
        Minion minion = start("web-1");
        awaitStarted(minion, m1, m2);
        m1.refuse("_pillar"); // as a master that has not accepted this minion answers its pillar request
        m2.answerPillar(Map.of("served_by", "m2"));
        int askedOfM1 = m1.loads("_pillar").size();

        m1.publish("pillar.items", "web-1", "glob", "20260101000000000010");

        await().atMost(WAIT).until(() -> returned(m1).contains("20260101000000000010"));
        assertThat(m1.loads("_pillar")).as("the first master was asked, and refused").hasSizeGreaterThan(askedOfM1);
        assertThat(returnValue(m1, "20260101000000000010")).isEqualTo(Map.of("served_by", "m2"));
    }

    @Test
    void aFileRequestOneMasterRefusesIsAskedOfTheNextMaster(@TempDir Path fileRoots) throws Exception {
        Files.createDirectories(fileRoots.resolve("base"));
        Files.writeString(fileRoots.resolve("base/hello.txt"), "hello");
        m2.serveFiles(fileRoots, 4096);
        Minion minion = start("web-1");
        awaitStarted(minion, m1, m2);
        m1.refuse("_file_list");

        m1.publish("cp.list_master", "web-1", "glob", "20260101000000000011");

        await().atMost(WAIT).until(() -> returned(m1).contains("20260101000000000011"));
        assertThat(m1.loads("_file_list")).as("the first master was asked, and refused").isNotEmpty();
        assertThat(returnValue(m1, "20260101000000000011")).isEqualTo(List.of("hello.txt"));
    }

    @Test
    void aSecondMasterWithAnotherKeyIsRefusedWhileTheFirstIsServed() throws Exception {
        m2.close();
        FakeMaster impostor = master(new FakeMaster(transport, 0, 0, SaltVectors.minionKeyPair()));
        m2 = impostor;
        // with nothing pinned yet, whichever master answers first would be pinned (as in Salt): master_finger decides
        Minion minion = start("web-1", "master_finger", io.jsalt.crypto.Fingerprint.sha256(SaltVectors.text("keys/master.pub")));

        awaitStarted(minion, m1);
        await().atMost(WAIT).until(() -> CapturedLogs.matching("ERROR", "web-1: refusing to sign in: the master").stream()
                .anyMatch(l -> l.message().endsWith("(master 127.0.0.1:" + impostor.requestPort() + ")")));
        impostor.publish("test.ping", "*", "glob", "20260101000000000006");
        m1.publish("test.ping", "*", "glob", "20260101000000000007");
        await().atMost(WAIT).until(() -> returned(m1).contains("20260101000000000007"));
        assertThat(impostor.loads("_return")).isEmpty();
    }

    @Test
    void failoverSignsInToOneMasterAndMovesToTheNextWhenItGoesAway() throws Exception {
        Minion minion = start("web-1", "master_type", "failover", "master_alive_interval", 1);
        await().atMost(WAIT).until(() -> minion.signedInTo().equals(List.of(address(m1))));
        assertThat(m2.clearCmds()).as("the second master is not asked while the first serves").isEmpty();

        m1.close();

        await().atMost(WAIT).until(() -> minion.signedInTo().equals(List.of(address(m2))));
        awaitStarted(minion, m2);
        m2.publish("test.ping", "*", "glob", "20260101000000000008");
        await().atMost(WAIT).until(() -> returned(m2).contains("20260101000000000008"));
        assertThat(m2.loads("_minion_event")).extracting(l -> l.get("tag")).contains("salt/minion/web-1/start");
    }

    @Test
    void failoverSkipsAMasterThatDoesNotAnswerAtStart() throws Exception {
        m1.close();
        Minion minion = start("web-1", "master_type", "failover", "master_alive_interval", 1);

        await().atMost(WAIT).until(() -> minion.signedInTo().equals(List.of(address(m2))));
    }

    @Test
    void failbackGoesBackToTheFirstMasterOnceItAnswersAgain() throws Exception {
        Minion minion = start("web-1", "master_type", "failover", "master_alive_interval", 1, "master_failback", true);
        await().atMost(WAIT).until(() -> minion.signedInTo().equals(List.of(address(m1))));
        int requestPort = m1.requestPort();
        int publishPort = m1.publishPort();
        m1.close();
        await().atMost(WAIT).until(() -> minion.signedInTo().equals(List.of(address(m2))));

        FakeMaster back = master(await().atMost(WAIT).ignoreExceptions()
                .until(() -> new FakeMaster(transport, requestPort, publishPort), m -> true));

        await().atMost(WAIT).until(() -> minion.signedInTo().equals(List.of("127.0.0.1:" + requestPort)));
        assertThat(back.clearCmds()).as("pinged before it was chosen again").contains("ping");
        awaitStarted(minion, back);
        back.publish("test.ping", "*", "glob", "20260101000000000009");
        await().atMost(WAIT).until(() -> returned(back).contains("20260101000000000009"));
    }

    @Test
    void aMasterWhoseNameDoesNotResolveIsGivenUpWithRetryDnsZeroAndTheOtherServes() throws Exception {
        Minion minion = start("web-1", "master", List.of("127.0.0.1:" + m1.requestPort(), "no-such-master.invalid"), "retry_dns", 0);

        awaitStarted(minion, m1);
        assertThat(CapturedLogs.matching("ERROR", "web-1: giving up master no-such-master.invalid:4506: its name does not resolve"))
                .isNotEmpty();
        assertThat(minion.terminated()).isNotDone();
    }

    @Test
    void aMinionWhoseOnlyMasterDoesNotResolveStopsOnceRetryDnsCountIsSpent() throws Exception {
        Minion minion = start("web-2", "master", "no-such-master.invalid", "retry_dns", 0.2, "retry_dns_count", 2);

        assertThat(minion.terminated().get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS))
                .startsWith(MinionMasters.NO_MASTER);
        assertThat(CapturedLogs.matching("ERROR", "web-2: master hostname no-such-master.invalid not found; retrying in 0.2 s"))
                .hasSize(2);
    }
}
