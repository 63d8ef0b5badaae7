package io.jsalt.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.config.MasterConfig;
import io.jsalt.master.support.SabotagedTransport;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestTimeoutException;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.message.RequestEnvelope;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real master on loopback whose components are killed from inside the test (never from the wire): the
 * process manager restarts each, the master keeps serving on the same ports, and a component that cannot
 * be kept up is reported through {@link Master#failure()}.
 */
class MasterSupervisionTest {
    /** A ping the workers answer (unlike the transport probe, which the router answers itself). */
    private static final byte[] PING = RequestEnvelope.clear(Map.of("cmd", "ping")).encode();
    /** Fast health checks and backoff; the probe is slow unless a test needs it. */
    private static final MasterTimings FAST = new MasterTimings(Duration.ofMillis(20), Duration.ofMillis(20),
            Duration.ofSeconds(1), Duration.ofHours(1), Duration.ofSeconds(1), 2, Duration.ofSeconds(5));

    @TempDir
    Path root;
    private final List<SabotagedTransport> made = new CopyOnWriteArrayList<>();
    private final Transport clients = Transport.create();
    private Master master;

    @AfterEach
    void stop() {
        made.forEach(SabotagedTransport::release);
        if (master != null) {
            master.close();
        }
        clients.close();
    }

    private MasterConfig config(int workers, Object... extra) throws IOException {
        var b = MasterConfig.builder(root).interfaceAddress("127.0.0.1").publishPort(freePort()).retPort(freePort())
                .workerThreads(workers);
        for (int i = 0; i < extra.length; i += 2) {
            b.set((String) extra[i], extra[i + 1]);
        }
        return b.build();
    }

    private Master start(MasterConfig config, MasterTimings timings) {
        return start(config, timings, false);
    }

    /** With {@code proxyFirst}, the first transport's request port is a relay the test can freeze. */
    private Master start(MasterConfig config, MasterTimings timings, boolean proxyFirst) {
        Supplier<Transport> factory = () -> {
            SabotagedTransport t = new SabotagedTransport(proxyFirst && made.isEmpty());
            made.add(t);
            return t;
        };
        master = new Master(config, factory, timings);
        master.start();
        return master;
    }

    private boolean pingAnswered(Duration timeout) {
        try (RequestClient c = clients.connectRequestClient("127.0.0.1", master.requestPort())) {
            return Boolean.TRUE.equals(SaltPack.unpack(c.request(PING, timeout)));
        } catch (RequestTimeoutException e) {
            return false;
        }
    }

    /** Pings until a worker took the deadly request (a fresh client can stall in the ZMTP handshake). */
    private void killAWorker(SabotagedTransport transport) {
        transport.killNextWorker();
        await().atMost(Duration.ofSeconds(15)).until(() -> {
            pingAnswered(Duration.ofSeconds(1));
            return !transport.killPending();
        });
    }

    private int workerRestarts(int workers) {
        int sum = 0;
        for (int i = 0; i < workers; i++) {
            sum += master.restarts("mworker-" + i);
        }
        return sum;
    }

    @Test
    void aWorkerKilledOnPurposeIsRestartedAndTheMasterKeepsServing() throws IOException {
        start(config(2), FAST);
        assertThat(pingAnswered(Duration.ofSeconds(5))).isTrue();
        assertThat(master.components()).containsExactly("local-events", "transport", "publisher", "request-server",
                "mworker-0", "mworker-1", "maintenance");

        killAWorker(made.get(0));

        await().atMost(Duration.ofSeconds(10)).until(() -> workerRestarts(2) == 1);
        for (int i = 0; i < 4; i++) {
            assertThat(pingAnswered(Duration.ofSeconds(5))).as("ping %d after the restart", i).isTrue();
        }
        assertThat(master.restarts("request-server")).isZero();
        assertThat(master.failure()).isNotDone();
    }

    @Test
    void aComponentThatKeepsDyingMakesTheMasterReportWhy() throws IOException {
        start(config(1, "component_restart_max", 1, "component_restart_window", 600), FAST);
        SabotagedTransport transport = made.get(0);

        killAWorker(transport);
        await().atMost(Duration.ofSeconds(10)).until(() -> master.restarts("mworker-0") == 1);
        assertThat(pingAnswered(Duration.ofSeconds(5))).isTrue();
        killAWorker(transport);

        String reason = master.failure().orTimeout(10, java.util.concurrent.TimeUnit.SECONDS).join();
        assertThat(reason).contains("mworker-0", "restarting too fast", "1 restarts within 600 s", "worker thread 0 stopped");
    }

    @Test
    void aDeadPublisherWhoseCloseNeverReturnsMakesTheMasterFailEvenWhenRestartingForever() throws IOException {
        MasterTimings shortClose = new MasterTimings(FAST.healthCheck(), FAST.initialBackoff(), FAST.maxBackoff(),
                FAST.probeInterval(), FAST.probeTimeout(), FAST.probeFailures(), FAST.rebindFor(), Duration.ofMillis(300));
        start(config(1, "component_restart_forever", true), shortClose);
        assertThat(pingAnswered(Duration.ofSeconds(5))).isTrue();

        made.get(0).killPublisherWithACloseThatSticks();

        String reason = master.failure().orTimeout(10, java.util.concurrent.TimeUnit.SECONDS).join();
        assertThat(reason).contains("publisher", "did not close within 300 ms", "cannot be brought back");
        assertThat(master.isUp("publisher")).isFalse();
        // the supervisor was not taken down with it: the request port still serves meanwhile
        assertThat(pingAnswered(Duration.ofSeconds(5))).isTrue();
    }

    @Test
    void aRequestPortThatStopsAnsweringIsFoundByTheProbeAndBothPortsAreBoundAgain() throws IOException {
        MasterTimings probing = new MasterTimings(Duration.ofMillis(20), Duration.ofMillis(20), Duration.ofSeconds(1),
                Duration.ofMillis(200), Duration.ofMillis(500), 2, Duration.ofSeconds(10));
        MasterConfig config = config(2);
        start(config, probing, true);
        assertThat(pingAnswered(Duration.ofSeconds(5))).isTrue();
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).until(() -> master.restarts("transport") == 0);

        made.get(0).freezeRequestPort();

        await().atMost(Duration.ofSeconds(30)).until(() -> master.restarts("transport") == 1);
        assertThat(made).hasSize(2);
        assertThat(master.requestPort()).isEqualTo(config.retPort());
        assertThat(master.publishPort()).isEqualTo(config.publishPort());
        await().atMost(Duration.ofSeconds(15)).until(() -> pingAnswered(Duration.ofSeconds(2)));
        try (Subscription sub = clients.subscribe("127.0.0.1", master.publishPort(), List.of(), payload -> { })) {
            assertThat(sub.awaitConnected(Duration.ofSeconds(10))).as("the publish port is bound again").isTrue();
        }
        assertThat(master.failure()).isNotDone();
    }

    @Test
    void busyWorkersDoNotMakeTheProbeDeclareTheTransportDead() throws Exception {
        MasterTimings probing = new MasterTimings(Duration.ofMillis(20), Duration.ofMillis(20), Duration.ofSeconds(1),
                Duration.ofMillis(100), Duration.ofMillis(300), 2, Duration.ofSeconds(10));
        start(config(1), probing);
        made.get(0).wedgeNext(1);
        RequestClient held = clients.connectRequestClient("127.0.0.1", master.requestPort());
        Thread holder = new Thread(() -> swallowTimeout(held));
        holder.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> made.get(0).wedged() == 1);

        // the only worker is busy for many probe rounds: the router still answers the probes
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4))
                .until(() -> master.isUp("transport") && master.restarts("transport") == 0);
        made.get(0).release();
        holder.join(10_000);
    }

    @Test
    void reloadGrowsAndShrinksTheWorkerPoolLive() throws Exception {
        MasterConfig one = config(1);
        start(one, FAST);
        SabotagedTransport transport = made.get(0);

        List<String> needRestart = master.reload(withWorkers(one, 3));
        assertThat(needRestart).isEmpty();
        assertThat(master.components()).contains("mworker-0", "mworker-1", "mworker-2");

        // two requests hold two workers: a third is answered only because the pool grew
        transport.wedgeNext(2);
        RequestClient held1 = clients.connectRequestClient("127.0.0.1", master.requestPort());
        RequestClient held2 = clients.connectRequestClient("127.0.0.1", master.requestPort());
        Thread t1 = new Thread(() -> swallowTimeout(held1));
        Thread t2 = new Thread(() -> swallowTimeout(held2));
        t1.start();
        t2.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> transport.wedged() == 2);
        assertThat(pingAnswered(Duration.ofSeconds(5))).isTrue();
        transport.release();
        t1.join(10_000);
        t2.join(10_000);

        master.reload(withWorkers(one, 1));
        assertThat(master.components()).contains("mworker-0").doesNotContain("mworker-1", "mworker-2");
        for (int i = 0; i < 3; i++) {
            assertThat(pingAnswered(Duration.ofSeconds(5))).isTrue();
        }
        assertThat(workerRestarts(1)).as("removed workers are not restarted").isZero();
    }

    private static void swallowTimeout(RequestClient c) {
        try (c) {
            c.request(PING, Duration.ofSeconds(10));
        } catch (RuntimeException e) {
            // the held request may be lost when the pool shrinks: the point is that it held a worker
        }
    }

    private MasterConfig withWorkers(MasterConfig base, int workers) {
        return MasterConfig.builder(root).interfaceAddress("127.0.0.1").publishPort(base.publishPort())
                .retPort(base.retPort()).workerThreads(workers).build();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
