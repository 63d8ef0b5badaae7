package io.jsalt.e2e.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.e2e.Cluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finding 1 of issue 13, against a real jsalt-master process: an unauthenticated subscriber that subscribes
 * one 8,000-byte topic used to kill the publisher thread (JeroMQ's subscription trie recurses once per
 * byte), and every job afterwards ended in "Minion did not return". The subscription must never reach the
 * trie, and jobs must keep reaching the minion.
 */
class OversizedSubscriptionEndToEndTest {
    private Cluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private void pingAnswered() {
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            Cluster.Result ping = cluster.jsalt("-t", "5", "alpha", "test.ping");
            assertThat(ping.stdout()).as(ping.toString()).contains("alpha:\n    True\n");
        });
    }

    @Test
    void anEightThousandByteSubscriptionLeavesThePublisherPublishing(@TempDir Path tmp) throws Exception {
        cluster = new Cluster(tmp);
        cluster.startMaster("auto_accept: true");
        cluster.startMinion("alpha");
        pingAnswered();

        byte[] subscription = new byte[8_001];
        Arrays.fill(subscription, (byte) 'a');
        subscription[0] = 1;
        for (int i = 0; i < 3; i++) {
            try (ZmtpWire attacker = ZmtpWire.connect(cluster.publishPort, "SUB")) {
                attacker.sendFrame(subscription, false);
                assertThat(attacker.hungUpByPeer()).as("the subscriber is dropped before its topic is read").isTrue();
            }
        }

        for (int i = 0; i < 3; i++) {
            Cluster.Result ping = cluster.jsalt("-t", "10", "alpha", "test.ping");
            assertThat(ping.stdout()).as(ping.toString()).contains("alpha:\n    True\n");
        }
        String log = Cluster.read(cluster.masterLog());
        assertThat(log).doesNotContain("StackOverflowError").doesNotContain("publisher on port");
        assertThat(cluster.masterProcess().isAlive()).isTrue();
    }
}
