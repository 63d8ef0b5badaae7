package io.jsalt.transport.zmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestLimits;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.RequestServerKind;
import io.jsalt.transport.RequestTimeoutException;
import io.jsalt.transport.Transport;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** The MWorker pool as the master's process manager sees it: each worker watched, restarted, resized. */
@ParameterizedClass
@EnumSource(RequestServerKind.class)
class RequestServerPoolTest {
    @Parameter
    RequestServerKind kind;
    private final Transport transport = Transport.create();
    private final Transport peers = Transport.create();
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicBoolean killNext = new AtomicBoolean();

    @AfterEach
    void close() {
        release.countDown();
        peers.close();
        transport.close();
    }

    /** Echoes; "hold" waits for the test, and the request after {@link #killNext} kills its worker. */
    private byte[] handle(byte[] request) {
        if (killNext.compareAndSet(true, false)) {
            throw new StackOverflowError("a worker dies of an Error");
        }
        if (Arrays.equals(request, "hold".getBytes())) {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return request;
    }

    private boolean echoes(RequestServer server, Duration timeout) {
        try (RequestClient c = peers.connectRequestClient("127.0.0.1", server.port())) {
            return "hi".equals(new String(c.request("hi".getBytes(), timeout)));
        } catch (RequestTimeoutException e) {
            return false;
        }
    }

    @Test
    void aWorkerKilledByAnErrorIsReportedDeadAndCanBeRestartedAlone() {
        RequestServer server = transport.bindRequestServer("127.0.0.1", 0, 2, this::handle, RequestLimits.DEFAULTS, kind);
        assertThat(server.workers()).isEqualTo(2);

        killNext.set(true);
        await().atMost(Duration.ofSeconds(15)).until(() -> {
            echoes(server, Duration.ofSeconds(1));
            return !killNext.get();
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> !server.isWorkerAlive(0) || !server.isWorkerAlive(1));
        int dead = server.isWorkerAlive(0) ? 1 : 0;

        server.restartWorker(dead);

        assertThat(server.isWorkerAlive(dead)).isTrue();
        assertThat(server.isAlive()).isTrue();
        for (int i = 0; i < 4; i++) {
            assertThat(echoes(server, Duration.ofSeconds(5))).isTrue();
        }
        server.close();
    }

    @Test
    void resizeAddsWorkersThatServeAndRemovesThemAgain() throws Exception {
        RequestServer server = transport.bindRequestServer("127.0.0.1", 0, 1, this::handle, RequestLimits.DEFAULTS, kind);
        server.resize(2);
        assertThat(server.workers()).isEqualTo(2);

        // the first worker is held: only the added one can answer
        RequestClient holder = peers.connectRequestClient("127.0.0.1", server.port());
        Thread held = new Thread(() -> {
            try {
                holder.request("hold".getBytes(), Duration.ofSeconds(20));
            } catch (RuntimeException e) {
                // released at the end of the test
            }
        });
        held.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> echoes(server, Duration.ofSeconds(2)));
        release.countDown();
        held.join(10_000);
        holder.close();

        server.resize(1);
        assertThat(server.workers()).isEqualTo(1);
        assertThat(echoes(server, Duration.ofSeconds(5))).isTrue();
        assertThatThrownBy(() -> server.resize(0)).isInstanceOf(IllegalArgumentException.class);
        server.close();
    }

    @Test
    void aBusyWorkerIsNeverHandedTheRequestsThatQueueBehindIt() throws Exception {
        // with a round-robin dealer every second request would wait behind the held one and time out
        RequestServer server = transport.bindRequestServer("127.0.0.1", 0, 2, this::handle, RequestLimits.DEFAULTS, kind);
        RequestClient holder = peers.connectRequestClient("127.0.0.1", server.port());
        CountDownLatch holding = new CountDownLatch(1);
        Thread held = new Thread(() -> {
            holding.countDown();
            try {
                holder.request("hold".getBytes(), Duration.ofSeconds(30));
            } catch (RuntimeException e) {
                // released at the end of the test
            }
        });
        held.start();
        holding.await();
        await().atMost(Duration.ofSeconds(10)).until(() -> echoes(server, Duration.ofSeconds(2)));

        for (int i = 0; i < 6; i++) {
            assertThat(echoes(server, Duration.ofSeconds(3))).as("request %d while one worker is held", i).isTrue();
        }
        release.countDown();
        held.join(10_000);
        holder.close();
        server.close();
    }

    @Test
    void requestsBeyondTheWorkersWaitForTheFirstIdleOne() throws Exception {
        RequestServer server = transport.bindRequestServer("127.0.0.1", 0, 1, this::handle, RequestLimits.DEFAULTS, kind);
        RequestClient holder = peers.connectRequestClient("127.0.0.1", server.port());
        java.util.concurrent.CompletableFuture<byte[]> heldReply =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> holder.request("hold".getBytes(), Duration.ofSeconds(30)));
        RequestClient waiter = peers.connectRequestClient("127.0.0.1", server.port());
        java.util.concurrent.CompletableFuture<byte[]> queuedReply =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> waiter.request("queued".getBytes(), Duration.ofSeconds(30)));

        release.countDown();

        assertThat(new String(heldReply.get(20, java.util.concurrent.TimeUnit.SECONDS))).isEqualTo("hold");
        assertThat(new String(queuedReply.get(20, java.util.concurrent.TimeUnit.SECONDS))).isEqualTo("queued");
        holder.close();
        waiter.close();
        server.close();
    }
}
