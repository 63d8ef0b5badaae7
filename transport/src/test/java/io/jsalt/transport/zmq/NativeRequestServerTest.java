package io.jsalt.transport.zmq;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestLimits;
import io.jsalt.transport.Transport;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the native request server does beyond what JeroMQ's ROUTER does, on raw TCP connections over
 * 127.0.0.1: it says why it refuses a peer, answers ZMTP 3.1's PING, drops a client that does not read its
 * replies, and closes connections that never finish their handshake.
 */
class NativeRequestServerTest {
    private static final String HOST = "127.0.0.1";
    private static final Duration WAIT = Duration.ofSeconds(15);

    private final Transport clients = Transport.create();
    private final List<RawZmtpPeer> peers = new ArrayList<>();
    private NativeRequestServer server;

    @AfterEach
    void close() throws IOException {
        for (RawZmtpPeer p : peers) {
            p.close();
        }
        clients.close();
        if (server != null) {
            server.close();
        }
    }

    private NativeRequestServer serve(long handshakeMs) {
        server = NativeRequestServer.start(HOST, 0, 2, request -> request, RequestLimits.DEFAULTS, handshakeMs);
        return server;
    }

    private RawZmtpPeer raw() throws IOException {
        RawZmtpPeer p = RawZmtpPeer.connected(server.port());
        peers.add(p);
        return p;
    }

    private RawZmtpPeer handshaken(String type) throws IOException {
        RawZmtpPeer p = RawZmtpPeer.handshaken(server.port(), type);
        peers.add(p);
        return p;
    }

    private void aGoodClientIsStillAnswered() {
        try (RequestClient client = clients.connectRequestClient(HOST, server.port())) {
            assertThat(client.request("good".getBytes(UTF_8), WAIT)).asString(UTF_8).isEqualTo("good");
        }
    }

    @Test
    void refusesAPeerOfAnotherSocketTypeWithAnErrorCommandThenHangsUp() throws IOException {
        serve(NativeRequestServer.HANDSHAKE_MS);
        RawZmtpPeer router = raw();
        router.write(RawZmtpPeer.greeting());
        router.write(RawZmtpPeer.ready("ROUTER"));

        assertThat(router.read(64)).hasSize(64);
        RawZmtpPeer.Frame ready = router.readFrameWithFlags();
        RawZmtpPeer.Frame error = router.readFrameWithFlags();

        assertThat(ready.command()).isTrue();
        assertThat(new String(ready.body(), UTF_8)).startsWith("\u0005READY").contains("Socket-Type").endsWith("ROUTER");
        assertThat(error.command()).isTrue();
        assertThat(new String(error.body(), UTF_8)).startsWith("\u0005ERROR").endsWith("invalid socket type");
        assertThat(router.hungUpByServer()).isTrue();
        aGoodClientIsStillAnswered();
    }

    @Test
    void hangsUpOnTheFirstByteThatIsNotAZmtpSignature() throws IOException {
        serve(NativeRequestServer.HANDSHAKE_MS);
        RawZmtpPeer http = raw();
        http.write("GET / HTTP/1.1\r\n\r\n".getBytes(UTF_8));

        assertThat(http.hungUpByServer()).isTrue();
        aGoodClientIsStillAnswered();
    }

    @Test
    void answersAPingWithAPongCarryingItsContext() throws IOException {
        serve(NativeRequestServer.HANDSHAKE_MS);
        RawZmtpPeer pinger = handshaken("DEALER");

        pinger.sendCommand("PING", new byte[] {0, 100, 'c', 't', 'x'});
        RawZmtpPeer.Frame pong = pinger.readFrameWithFlags();

        assertThat(pong.command()).isTrue();
        assertThat(pong.body()).isEqualTo(new byte[] {4, 'P', 'O', 'N', 'G', 'c', 't', 'x'});
        // and the connection still serves requests
        pinger.sendFrame(new byte[0], true);
        pinger.sendFrame("after ping".getBytes(UTF_8), false);
        assertThat(pinger.readFrameWithFlags().body()).isEmpty();
        assertThat(pinger.readFrameWithFlags().body()).asString(UTF_8).isEqualTo("after ping");
    }

    @Test
    void answersADealerThatPipelinesRequestsInOrder() throws IOException {
        serve(NativeRequestServer.HANDSHAKE_MS);
        RawZmtpPeer dealer = handshaken("DEALER");
        for (int i = 0; i < 50; i++) {
            dealer.sendFrame(new byte[0], true);
            dealer.sendFrame(("n" + i).getBytes(UTF_8), false);
        }

        List<String> replies = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            assertThat(dealer.readFrameWithFlags().more()).isTrue();
            replies.add(new String(dealer.readFrameWithFlags().body(), UTF_8));
        }

        // two workers answer side by side, so replies may pass each other; each request gets exactly one
        assertThat(replies).containsExactlyInAnyOrderElementsOf(
                java.util.stream.IntStream.range(0, 50).mapToObj(i -> "n" + i).toList());
    }

    @Test
    void dropsAClientThatDoesNotReadItsRepliesOnceTheirBytesPassTheCap() throws IOException {
        serve(NativeRequestServer.HANDSHAKE_MS);
        RawZmtpPeer deaf = handshaken("DEALER");
        byte[] big = new byte[256 * 1024];
        Arrays.fill(big, (byte) 'x');
        long sent = 0;
        try {
            // twice the cap in echoed replies, more than any socket buffers hold
            while (sent < 2 * NativeRequestServer.MAX_PENDING_BYTES + 8L * 1024 * 1024) {
                deaf.sendFrame(new byte[0], true);
                deaf.sendFrame(big, false);
                sent += big.length;
            }
        } catch (IOException dropped) {
            // the server hung up while requests were still being written: what this test expects
        }

        await().atMost(WAIT).until(() -> server.connections() == 0);
        assertThat(deaf.hungUpByServer()).isTrue();
        await().atMost(WAIT).until(() -> server.inflightBytes() == 0);
        aGoodClientIsStillAnswered();
    }

    @Test
    void closesAConnectionThatDoesNotFinishItsHandshakeInTime() throws IOException {
        serve(300);
        RawZmtpPeer half = raw();
        half.write(new byte[] {(byte) 0xff, 0, 0, 0, 0, 0, 0, 0, 1, 0x7f});
        RawZmtpPeer done = handshaken("REQ");

        assertThat(half.hungUpByServer()).isTrue();
        await().atMost(WAIT).until(() -> server.connections() == 1);
        done.sendFrame(new byte[0], true);
        done.sendFrame("still here".getBytes(UTF_8), false);
        assertThat(done.readFrameWithFlags().more()).isTrue();
        assertThat(done.readFrameWithFlags().body()).asString(UTF_8).isEqualTo("still here");
    }

    @Test
    void connectionsOpenedAndDroppedHoldNothingAfterwards() throws IOException {
        serve(NativeRequestServer.HANDSHAKE_MS);
        for (int i = 0; i < 300; i++) {
            RawZmtpPeer p = RawZmtpPeer.connected(server.port());
            if (i % 2 == 1) {
                p.write(RawZmtpPeer.greeting());
                p.write(RawZmtpPeer.ready("REQ"));
                p.sendFrame(new byte[0], true);
                p.sendHeader(1024 * 1024, false); // charged to the budget, then cut off
                p.write(new byte[1000]);
            }
            p.close();
        }

        await().atMost(WAIT).until(() -> server.connections() == 0 && server.inflightBytes() == 0);
        aGoodClientIsStillAnswered();
    }
}
