package io.jsalt.transport.zmq;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestTimeoutException;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * A minion's sockets against a rogue master on 127.0.0.1: a publisher and a request server that send frames
 * larger than the minion accepts. A 50 MiB publication used to kill the subscription thread with
 * OutOfMemoryError, and nothing reached the minion again.
 */
class ClientFrameLimitsTest {
    private static final String HOST = "127.0.0.1";
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final int LIMIT = 256 * 1024;

    private final Transport transport = Transport.create();
    private final ZContext rogue = new ZContext();
    private volatile boolean serving = true;
    private Thread server;

    @AfterEach
    void close() throws InterruptedException {
        transport.close();
        // the rogue server's thread closes its own socket: a ZMQ socket closed from another thread while it is in
        // recv() trips JeroMQ's assertions (zmq.Own.unregisterTermAck) and leaves the context unclosable
        serving = false;
        if (server != null) {
            server.join(WAIT.toMillis());
            assertThat(server.isAlive()).as("the rogue server stopped").isFalse();
        }
        rogue.close();
    }

    @Test
    void aPublicationAboveTheLimitIsDroppedAndTheNextOnesArrive() {
        ZMQ.Socket pub = rogue.createSocket(SocketType.PUB);
        int port = pub.bindToRandomPort("tcp://" + HOST);
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        AtomicInteger disconnects = new AtomicInteger();
        try (Subscription sub = transport.subscribe(HOST, port, List.of(), p -> sizes.add(p.length), LIMIT)) {
            sub.connectionListener(new io.jsalt.transport.ConnectionListener() {
                @Override
                public void onConnected() {}

                @Override
                public void onDisconnected() {
                    disconnects.incrementAndGet();
                }
            });
            assertThat(sub.awaitConnected(WAIT)).isTrue();
            await().atMost(WAIT).until(() -> {
                pub.send("job".getBytes(US_ASCII), 0);
                return !sizes.isEmpty();
            });
            pub.send(new byte[LIMIT + 1], 0);
            await().atMost(WAIT).until(() -> disconnects.get() > 0);
            int before = sizes.size();
            // the SUB reconnects by itself, and what comes next arrives
            await().atMost(WAIT).until(() -> {
                pub.send("job".getBytes(US_ASCII), 0);
                return sizes.size() > before;
            });
        }
        assertThat(sizes).containsOnly(3);
    }

    @Test
    void aPublicationThatThrowsAnErrorCostsOnlyThatPublication() {
        ZMQ.Socket pub = rogue.createSocket(SocketType.PUB);
        int port = pub.bindToRandomPort("tcp://" + HOST);
        AtomicInteger calls = new AtomicInteger();
        List<String> received = new CopyOnWriteArrayList<>();
        try (Subscription sub = transport.subscribe(HOST, port, List.of(), p -> {
            if (calls.incrementAndGet() == 1) {
                throw new OutOfMemoryError("a listener that ran out of memory on one publication");
            }
            received.add(new String(p, US_ASCII));
        })) {
            assertThat(sub.awaitConnected(WAIT)).isTrue();
            await().atMost(WAIT).until(() -> {
                pub.send("job".getBytes(US_ASCII), 0);
                return !received.isEmpty();
            });
        }
        assertThat(calls.get()).isGreaterThan(1);
    }

    @Test
    void aReplyAboveTheLimitTimesTheRequestOutAndTheNextRequestIsAnswered() {
        ZMQ.Socket router = rogue.createSocket(SocketType.ROUTER);
        router.setReceiveTimeOut(100);
        int port = router.bindToRandomPort("tcp://" + HOST);
        AtomicInteger requests = new AtomicInteger();
        server = new Thread(() -> {
            try {
                while (serving) {
                    byte[] identity = router.recv(0);
                    if (identity == null) {
                        continue;
                    }
                    router.recv(0);
                    router.recv(0);
                    byte[] reply = requests.incrementAndGet() == 1 ? new byte[LIMIT + 1] : "small".getBytes(US_ASCII);
                    router.sendMore(identity);
                    router.sendMore(new byte[0]);
                    router.send(reply, 0);
                }
            } finally {
                rogue.destroySocket(router);
            }
        }, "rogue-request-server");
        server.setDaemon(true);
        server.start();

        try (RequestClient client = transport.connectRequestClient(HOST, port, LIMIT)) {
            assertThatThrownBy(() -> client.request("sign in".getBytes(US_ASCII), Duration.ofSeconds(2)))
                    .isInstanceOf(RequestTimeoutException.class);
            assertThat(client.request("again".getBytes(US_ASCII), WAIT)).asString(US_ASCII).isEqualTo("small");
        }
    }
}
