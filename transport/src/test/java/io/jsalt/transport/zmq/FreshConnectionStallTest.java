package io.jsalt.transport.zmq;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.transport.RequestServer;
import io.jsalt.transport.Transport;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.zeromq.ZContext;

/**
 * JeroMQ 0.6.0 leaves a few per cent of new connections without their ZMTP handshake ({@link PollerNudge}).
 * With the handshake timer off, such a connection never recovers by itself, so every one of many fresh
 * connections being answered shows that the client's nudges, not the timer, end the stall.
 */
class FreshConnectionStallTest {
    private static final int CONNECTIONS = 300;

    private final Transport masterSide = Transport.create();
    private final RequestServer server = masterSide.bindRequestServer("127.0.0.1", 0, 2, request -> request);
    private final ZContext context = new ZContext(1);
    private final IdleTimer idleTimer = new IdleTimer();

    @AfterEach
    void close() {
        idleTimer.close();
        context.close();
        server.close();
        masterSide.close();
    }

    @Test
    void everyRequestOnAFreshConnectionIsAnsweredWithoutTheHandshakeTimer() {
        ZmqRequestClient client = new ZmqRequestClient(context, Endpoints.tcp("127.0.0.1", server.port()), idleTimer,
                new PollerNudge(context), 0);
        client.closeWhenIdle(Duration.ZERO); // a new connection for every request

        for (int i = 0; i < CONNECTIONS; i++) {
            byte[] reply = client.request(("r" + i).getBytes(UTF_8), Duration.ofSeconds(10));
            assertThat(reply).as("request %d", i).asString(UTF_8).isEqualTo("r" + i);
        }
    }
}
