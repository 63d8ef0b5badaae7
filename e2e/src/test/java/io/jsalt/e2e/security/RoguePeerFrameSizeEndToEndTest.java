package io.jsalt.e2e.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.e2e.Cluster;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finding 3 of issue 13, against a real jsalt-minion process (128 MiB heap) whose master is reached through
 * an on-path attacker: a huge publication used to kill the minion's subscription thread with
 * OutOfMemoryError (no job reached it again), and a huge sign-in reply ended its sign-in loop for good.
 * Each frame here declares 200 MiB, more than the minion's whole memory.
 */
class RoguePeerFrameSizeEndToEndTest {
    private static final long HUGE = 200L * 1024 * 1024;
    /** Another loopback address: the master listens on 127.0.0.1 only, the gate on this one with the same ports. */
    private static final String GATE_HOST = "127.0.0.2";

    private Cluster cluster;
    private OnPathGate publishGate;
    private OnPathGate requestGate;

    @AfterEach
    void stop() throws Exception {
        if (publishGate != null) {
            publishGate.close();
        }
        if (requestGate != null) {
            requestGate.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private void pingAnswered(String why) {
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
            Cluster.Result ping = cluster.jsalt("-t", "5", "alpha", "test.ping");
            assertThat(ping.stdout()).as(why + "\n" + ping).contains("alpha:\n    True\n");
        });
    }

    @Test
    void aMinionSurvivesAHugeSignInReplyAndAHugePublicationAndKeepsTakingJobs(@TempDir Path tmp) throws Exception {
        cluster = new Cluster(tmp);
        cluster.startMaster("auto_accept: true");
        InetAddress gate = InetAddress.getByName(GATE_HOST);
        publishGate = new OnPathGate(gate, cluster.publishPort, cluster.publishPort);
        requestGate = new OnPathGate(gate, cluster.retPort, cluster.retPort);

        AtomicLong replyBytesTaken = new AtomicLong(-1);
        requestGate.serveNextAsRogue(connection -> {
            ZmtpWire wire = new ZmtpWire(connection);
            wire.handshake("ROUTER");
            wire.readFrame(); // the REQ delimiter
            wire.readFrame(); // the sign-in request
            wire.sendFrame(new byte[0], true);
            wire.sendHeader(HUGE, false);
            replyBytesTaken.set(wire.sendBody(HUGE));
        });
        cluster.startMinionOverriding("alpha", "master: " + GATE_HOST);
        await().atMost(Duration.ofSeconds(60)).until(() -> requestGate.rogueServed() == 1);
        assertThat(replyBytesTaken.get()).as("the minion hung up long before 200 MiB").isLessThan(HUGE);
        pingAnswered("signed in after the rogue sign-in reply");

        AtomicLong publicationBytesTaken = new AtomicLong(-1);
        publishGate.serveNextAsRogue(connection -> {
            ZmtpWire wire = new ZmtpWire(connection);
            wire.handshake("PUB");
            wire.sendHeader(HUGE, false);
            publicationBytesTaken.set(wire.sendBody(HUGE));
        });
        publishGate.dropForwarded(); // the minion's subscription connects again, to the rogue first
        await().atMost(Duration.ofSeconds(60)).until(() -> publishGate.rogueServed() == 1);
        assertThat(publicationBytesTaken.get()).as("the minion hung up long before 200 MiB").isLessThan(HUGE);
        pingAnswered("jobs reach the minion after the rogue publication");

        String log = Cluster.read(cluster.minionLog("alpha"));
        assertThat(log).doesNotContain("OutOfMemoryError");
        assertThat(cluster.minion("alpha").isAlive()).isTrue();
    }
}
