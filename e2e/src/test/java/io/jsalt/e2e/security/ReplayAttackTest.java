package io.jsalt.e2e.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.e2e.Cluster;
import io.jsalt.e2e.EventTap;
import io.jsalt.transport.PublishServer;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finding 4 (replay): an attacker on the path between minion m1 and the master (m1 reaches the master
 * through {@link OnPathProxy} at 127.0.0.2) captures traffic and sends it again later, under the same
 * session key (the master does not restart, so the key lives for publish_session).
 */
@Tag("security")
class ReplayAttackTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String ON_PATH = "127.0.0.2";

    @TempDir
    Path tmp;
    private Cluster cluster;
    private OnPathProxy requests;
    private OnPathProxy publications;
    private final Transport transport = Transport.create();

    @BeforeEach
    void start() throws Exception {
        cluster = new Cluster(tmp);
        cluster.startMaster("auto_accept: True");
        requests = OnPathProxy.listen(ON_PATH, cluster.retPort, cluster.retPort);
        publications = OnPathProxy.listen(ON_PATH, cluster.publishPort, cluster.publishPort);
    }

    @AfterEach
    void stop() {
        requests.close();
        publications.close();
        transport.close();
        cluster.close();
    }

    private Process startM1(String role) throws Exception {
        return cluster.startMinionOverriding("m1", "master: " + ON_PATH, "grains: {role: " + role + "}");
    }

    private void awaitAnswersAs(String role) {
        await().atMost(WAIT).untilAsserted(() -> {
            Cluster.Result ping = cluster.jsalt("-t", "5", "-G", "role:" + role, "test.ping");
            assertThat(ping.stdout()).as(ping.toString()).contains("m1:\n    True\n");
        });
    }

    private long signIns() {
        return Cluster.read(cluster.minionLog("m1")).lines().filter(l -> l.contains("m1 signed in to master")).count();
    }

    @Test
    void aPublicationCapturedAndSentAgainAfterTheMinionRestartedDoesNotRunAgain() throws Exception {
        List<byte[]> captured = new CopyOnWriteArrayList<>();
        // any stranger may subscribe to the publish port: every frame reaches every subscriber
        Subscription eavesdropper = transport.subscribe("127.0.0.1", cluster.publishPort, List.of(new byte[0]), captured::add);
        startM1("web");
        awaitAnswersAs("web");
        Path ran = tmp.resolve("ran.txt");
        captured.clear();
        Cluster.Result job = cluster.jsalt("-t", "10", "m1", "cmd.run", "sh -c 'echo ran >> " + ran + "'");
        assertThat(job.exitCode()).as(job.toString()).isZero();
        assertThat(Files.readAllLines(ran)).hasSize(1);
        assertThat(captured).isNotEmpty();
        byte[] frame = captured.get(captured.size() - 1);
        eavesdropper.close();

        cluster.stopMinion("m1");
        try (PublishServer rogue = transport.bindPublisher("127.0.0.1", Cluster.freePort())) {
            publications.redirectTo(rogue.port()); // m1's next publish connection reaches the attacker
            startM1("web");
            await().atMost(WAIT).until(() -> signIns() >= 2);
            await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
                rogue.publish(frame);
                return Cluster.read(cluster.minionLog("m1")).contains("replayed (serial or jid seen before)")
                        || Files.readAllLines(ran).size() > 1;
            });
        }

        assertThat(Files.readAllLines(ran)).as("the job ran once").hasSize(1);
    }

    @Test
    void requestsCapturedAndSentAgainNeitherRollBackGrainsNorAnnounceAStart() throws Exception {
        try (EventTap tap = EventTap.connect(cluster.masterSockDir(), WAIT)) {
            startM1("patchme");
            awaitAnswersAs("patchme");
            List<byte[]> firstRun = requests.recordedConnections();
            assertThat(firstRun).isNotEmpty();

            cluster.stopMinion("m1");
            startM1("patched");
            awaitAnswersAs("patched");
            await().atMost(WAIT).until(() -> starts(tap) == 2);

            for (byte[] connection : firstRun) {
                OnPathProxy.replay(connection, cluster.retPort); // its sign-in, grains report and start events
            }
            try {
                await().atMost(WAIT).until(() -> Cluster.read(cluster.masterLog()).contains("replayed request stamp"));
            } catch (RuntimeException e) {
                System.err.println("DEBUG-MASTER-LOG\n" + Cluster.read(cluster.masterLog()) + "\nDEBUG-M1\n" + Cluster.read(cluster.minionLog("m1"))
                        + "\nDEBUG-CONNS " + firstRun.stream().map(b -> b.length).toList());
                throw e;
            }

            awaitAnswersAs("patched");
            Cluster.Result old = cluster.jsalt("-t", "5", "-G", "role:patchme", "test.ping");
            assertThat(old.stdout() + old.stderr()).doesNotContain("m1:");
            assertThat(starts(tap)).as("minion_start once per real start").isEqualTo(2);
        }
    }

    private static long starts(EventTap tap) {
        return tap.matching(e -> e.tag().equals("minion_start") && "m1".equals(e.data().get("id"))).size();
    }
}
