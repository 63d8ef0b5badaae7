package io.jsalt.e2e.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.e2e.Cluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finding 2 of issue 13, against a real jsalt-master process run with a 128 MiB heap (so at most 128 MiB of
 * direct memory, JeroMQ's home for frames above 1 MiB): connections that complete the ZMTP handshake and
 * send a frame header declaring a large size, then nothing. JeroMQ reserves a declared frame at once; five
 * such connections used to take a 256 MiB master down with "Cannot reserve ... direct buffer memory".
 */
class DeclaredFrameSizeBudgetEndToEndTest {
    private static final long MIB = 1024 * 1024;

    private Cluster cluster;
    private final List<ZmtpWire> attackers = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (ZmtpWire a : attackers) {
            a.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private ZmtpWire declare(long size) throws Exception {
        ZmtpWire wire = ZmtpWire.connect(cluster.retPort, "REQ");
        attackers.add(wire);
        wire.sendFrame(new byte[0], true); // the REQ envelope's delimiter
        wire.sendHeader(size, false); // a body that never comes
        return wire;
    }

    private void pingAnswered(String why) {
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            Cluster.Result ping = cluster.jsalt("-t", "5", "alpha", "test.ping");
            assertThat(ping.stdout()).as(why + "\n" + ping).contains("alpha:\n    True\n");
        });
    }

    @Test
    void idleConnectionsDeclaringLargeFramesLeaveASmallMasterServing(@TempDir Path tmp) throws Exception {
        cluster = new Cluster(tmp);
        cluster.startMaster("auto_accept: true");
        cluster.startMinion("alpha");
        pingAnswered("before the attack");

        // twelve just under max_request_size (16 MiB): 180 MiB declared, more than the master's whole memory
        for (int i = 0; i < 12; i++) {
            declare(15 * MIB);
        }
        // and five of the 60 MiB the report used: above max_request_size, dropped at their header
        List<ZmtpWire> oversized = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            oversized.add(declare(60 * MIB));
        }
        for (ZmtpWire w : oversized) {
            assertThat(w.hungUpByPeer()).as("a 60 MiB header gets its connection dropped").isTrue();
        }
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(Cluster.read(cluster.masterLog()))
                .contains("max_inflight_request_bytes"));

        for (int i = 0; i < 3; i++) {
            pingAnswered("while twelve connections hold their declared frames open");
        }
        String log = Cluster.read(cluster.masterLog());
        assertThat(log).doesNotContain("OutOfMemoryError").doesNotContain("restarting too fast");
        assertThat(cluster.masterProcess().isAlive()).as("the same master process serves").isTrue();
    }
}
