package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scanner probe that kills JeroMQ 0.6.0's I/O thread, sent to both ports of a real jsalt-master
 * process: the master must still answer, and a job must still reach the minion and come back.
 */
class NegativeFrameSizeEndToEndTest {
    /** The bound this test states: a ping works again within this long after the probes. */
    private static final Duration PING_AGAIN_WITHIN = Duration.ofSeconds(30);

    private Cluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aNegativeFrameSizeOnBothPortsLeavesTheMasterServing(@TempDir Path tmp) throws Exception {
        cluster = new Cluster(tmp);
        cluster.startMaster("auto_accept: true");
        cluster.startMinion("alpha");
        await().atMost(Duration.ofSeconds(60)).until(() -> cluster.jsalt("-t", "5", "alpha", "test.ping").stdout()
                .contains("alpha:\n    True\n"));

        ScannerProbe.sendTo(cluster.publishPort);
        ScannerProbe.sendTo(cluster.retPort);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(Cluster.read(cluster.masterLog()))
                .contains("refused a ZMTP frame with a negative size on tcp://127.0.0.1:" + cluster.publishPort)
                .contains("refused a ZMTP frame with a negative size on tcp://127.0.0.1:" + cluster.retPort));
        long probed = System.nanoTime();
        await().atMost(PING_AGAIN_WITHIN).untilAsserted(() -> {
            Cluster.Result ping = cluster.jsalt("-t", "5", "*", "test.ping");
            assertThat(ping.exitCode()).as(ping.toString()).isZero();
            assertThat(ping.stdout()).contains("alpha:\n    True\n");
        });
        assertThat(Duration.ofNanos(System.nanoTime() - probed)).isLessThan(PING_AGAIN_WITHIN);
        assertThat(cluster.masterProcess().isAlive()).as("the same master process serves").isTrue();
    }
}
