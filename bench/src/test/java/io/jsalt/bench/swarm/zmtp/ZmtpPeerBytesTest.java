package io.jsalt.bench.swarm.zmtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The master must not be able to tell the swarm's own ZMTP from JeroMQ's: a plain TCP listener plays the master's
 * side of the handshake (greeting, READY) and records every byte a client sends, once for a JeroMQ socket (the
 * product's transport) and once for {@link NioSwarmTransport}.
 */
@Timeout(30)
class ZmtpPeerBytesTest {
    private static final byte[] TOPIC = "minion.presence/bench-00001".getBytes(StandardCharsets.US_ASCII);

    @Test
    void aSubscriptionSendsJeroMqsBytes() throws Exception {
        byte[] jeromq = recordSubscription(Transport.create());
        byte[] ours = recordSubscription(new NioSwarmTransport());

        assertThat(ours).isEqualTo(jeromq);
        // the greeting, the READY of a SUB, then both subscriptions ("" and the presence topic) as JeroMQ sends them
        assertThat(ours).hasSize(64 + 2 + 25 + 3 + 2 + 1 + TOPIC.length);
    }

    @Test
    void aRequestSendsJeroMqsBytesAndTakesTheReply() throws Exception {
        byte[] payload = "a request".getBytes(StandardCharsets.US_ASCII);
        Recorded jeromq = recordRequest(Transport.create(), payload);
        Recorded ours = recordRequest(new NioSwarmTransport(), payload);

        assertThat(ours.sent()).isEqualTo(jeromq.sent());
        assertThat(ours.reply()).isEqualTo(jeromq.reply()).isEqualTo("the reply".getBytes(StandardCharsets.US_ASCII));
    }

    private record Recorded(byte[] sent, byte[] reply) {}

    private static byte[] recordSubscription(Transport transport) throws Exception {
        try (transport; ServerSocket listener = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            Subscription sub = transport.subscribe("127.0.0.1", listener.getLocalPort(), List.of(new byte[0], TOPIC), p -> { });
            try (Socket peer = listener.accept()) {
                answerHandshake(peer, "PUB");
                byte[] sent = readUntil(peer, 64 + 2 + 25 + 3 + 2 + 1 + TOPIC.length);
                assertThat(sub.awaitConnected(Duration.ofSeconds(5))).isTrue();
                sub.close();
                return sent;
            }
        }
    }

    private static Recorded recordRequest(Transport transport, byte[] payload) throws Exception {
        try (transport; ServerSocket listener = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            RequestClient client = transport.connectRequestClient("127.0.0.1", listener.getLocalPort());
            CompletableFuture<byte[]> reply = CompletableFuture.supplyAsync(() -> client.request(payload, Duration.ofSeconds(10)));
            try (Socket peer = listener.accept()) {
                answerHandshake(peer, "ROUTER");
                // greeting, READY of a REQ (Socket-Type and an empty Identity), the delimiter, the payload
                byte[] sent = readUntil(peer, 64 + 2 + 38 + 2 + 2 + payload.length);
                byte[] answer = "the reply".getBytes(StandardCharsets.US_ASCII);
                OutputStream out = peer.getOutputStream();
                out.write(new byte[] {1, 0, 0, (byte) answer.length});
                out.write(answer);
                out.flush();
                byte[] got = reply.get();
                client.close();
                return new Recorded(sent, got);
            }
        }
    }

    /** The master's half of the handshake: a ZMTP 3.0 NULL greeting and a READY naming {@code socketType}. */
    private static void answerHandshake(Socket peer, String socketType) throws IOException {
        byte[] greeting = new byte[64];
        greeting[0] = (byte) 0xff;
        greeting[9] = 0x7f;
        greeting[10] = 3;
        System.arraycopy("NULL".getBytes(StandardCharsets.US_ASCII), 0, greeting, 12, 4);
        ByteArrayOutputStream ready = new ByteArrayOutputStream();
        ready.write(5);
        ready.writeBytes("READY".getBytes(StandardCharsets.US_ASCII));
        ready.write(11);
        ready.writeBytes("Socket-Type".getBytes(StandardCharsets.US_ASCII));
        ready.writeBytes(new byte[] {0, 0, 0, (byte) socketType.length()});
        ready.writeBytes(socketType.getBytes(StandardCharsets.US_ASCII));
        OutputStream out = peer.getOutputStream();
        out.write(greeting);
        out.write(new byte[] {4, (byte) ready.size()});
        out.write(ready.toByteArray());
        out.flush();
    }

    /** Reads until {@code expected} bytes came, then a little longer, to see nothing more follows. */
    private static byte[] readUntil(Socket peer, int expected) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        InputStream in = peer.getInputStream();
        byte[] buffer = new byte[4096];
        AtomicReference<IOException> failure = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            peer.setSoTimeout(got.size() >= expected ? 300 : 100);
            try {
                int n = in.read(buffer);
                if (n < 0) {
                    return true;
                }
                got.write(buffer, 0, n);
                return false;
            } catch (SocketTimeoutException e) {
                return got.size() >= expected;
            } catch (IOException e) {
                failure.set(e);
                return true;
            }
        });
        if (failure.get() != null) {
            throw failure.get();
        }
        return got.toByteArray();
    }
}
