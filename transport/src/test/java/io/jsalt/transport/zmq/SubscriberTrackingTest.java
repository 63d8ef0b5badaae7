package io.jsalt.transport.zmq;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.PublishServer;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import io.jsalt.transport.message.Topics;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The publish socket's view of its subscribers, on real sockets over 127.0.0.1: what presence_events is
 * built on. Checked against JeroMQ 0.6.0: a closed SUB, and a TCP connection reset mid-session (what a
 * killed process leaves), both arrive at the XPUB as unsubscriptions of every topic the peer held.
 */
class SubscriberTrackingTest {
    private static final String HOST = "127.0.0.1";
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String WEB1 = new String(Topics.ofMinion("web1"), US_ASCII);
    private static final String WEB2 = new String(Topics.ofMinion("web2"), US_ASCII);

    private final Transport transport = Transport.create();
    private final PublishServer pub = transport.bindPublisher(HOST, 0);

    @AfterEach
    void close() {
        pub.close();
        transport.close();
    }

    private Subscription subscribe(String... topics) {
        return transport.subscribe(HOST, pub.port(), java.util.Arrays.stream(topics).map(t -> t.getBytes(US_ASCII)).toList(),
                p -> { });
    }

    @Test
    void aTopicIsSubscribedWhileOneOfItsSubscribersIsConnected() {
        Subscription first = subscribe(WEB1);
        Subscription second = subscribe(WEB1, WEB2);
        await().atMost(WAIT).until(() -> pub.subscribedTopics().containsAll(List.of(WEB1, WEB2)));

        second.close();
        await().atMost(WAIT).until(() -> !pub.subscribedTopics().contains(WEB2));
        assertThat(pub.subscribedTopics()).containsExactly(WEB1);

        first.close();
        await().atMost(WAIT).until(() -> pub.subscribedTopics().isEmpty());
    }

    @Test
    void aSubscriberOfEverythingIsTheEmptyTopicAndStillReceivesEverythingOnce() {
        List<String> received = new CopyOnWriteArrayList<>();
        try (Subscription both = transport.subscribe(HOST, pub.port(), List.of(new byte[0], WEB1.getBytes(US_ASCII)),
                p -> received.add(new String(p, UTF_8)))) {
            await().atMost(WAIT).until(() -> pub.subscribedTopics().containsAll(List.of("", WEB1)));
            pub.publish(WEB1.getBytes(US_ASCII), "for web1".getBytes(UTF_8));
            pub.publish(WEB2.getBytes(US_ASCII), "for web2".getBytes(UTF_8));
            pub.publish("single frame".getBytes(UTF_8));
            pub.publish("end".getBytes(UTF_8));
            await().atMost(WAIT).until(() -> received.contains("end"));
            assertThat(received).containsExactly("for web1", "for web2", "single frame", "end");
        }
    }

    @Test
    void aConnectionResetWithoutAnyGoodbyeUnsubscribesItsTopics() throws IOException {
        Subscription other = subscribe(WEB2);
        try (Socket raw = new Socket(HOST, pub.port())) {
            RawSubscriber.handshake(raw);
            RawSubscriber.subscribe(raw, WEB1);
            await().atMost(WAIT).until(() -> pub.subscribedTopics().containsAll(List.of(WEB1, WEB2)));
            raw.setSoLinger(true, 0); // close() now resets the connection, as the kernel does for a killed process
        }
        await().atMost(WAIT).until(() -> !pub.subscribedTopics().contains(WEB1));
        assertThat(pub.subscribedTopics()).containsExactly(WEB2);
        other.close();
    }

    @Test
    void anExplicitUnsubscriptionRemovesTheTopicWhileTheConnectionStays() throws IOException {
        try (Socket raw = new Socket(HOST, pub.port())) {
            RawSubscriber.handshake(raw);
            RawSubscriber.subscribe(raw, WEB1);
            await().atMost(WAIT).until(() -> pub.subscribedTopics().contains(WEB1));
            RawSubscriber.send(raw, 0, WEB1);
            await().atMost(WAIT).until(() -> pub.subscribedTopics().isEmpty());
            RawSubscriber.subscribe(raw, WEB1);
            await().atMost(WAIT).until(() -> pub.subscribedTopics().contains(WEB1));
        }
    }

    /** A SUB peer spoken by hand (ZMTP 3.0, NULL mechanism), so its connection can end without ZeroMQ's help. */
    private static final class RawSubscriber {
        static void handshake(Socket s) throws IOException {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            byte[] greeting = new byte[64];
            greeting[0] = (byte) 0xFF;
            greeting[9] = 0x7F;
            greeting[10] = 3;
            System.arraycopy("NULL".getBytes(US_ASCII), 0, greeting, 12, 4);
            out.write(greeting);
            ByteArrayOutputStream ready = new ByteArrayOutputStream();
            ready.write(5);
            ready.writeBytes("READY".getBytes(US_ASCII));
            ready.write(11);
            ready.writeBytes("Socket-Type".getBytes(US_ASCII));
            ready.writeBytes(new byte[] {0, 0, 0, 3});
            ready.writeBytes("SUB".getBytes(US_ASCII));
            out.write(0x04);
            out.write(ready.size());
            ready.writeTo(out);
            out.flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            in.readFully(new byte[64]); // the XPUB's greeting
            int flags = in.readUnsignedByte(); // its READY command
            assertThat(flags & 0x04).isEqualTo(0x04);
            in.readFully(new byte[in.readUnsignedByte()]);
        }

        static void subscribe(Socket s, String topic) throws IOException {
            send(s, 1, topic);
        }

        static void send(Socket s, int kind, String topic) throws IOException {
            byte[] t = topic.getBytes(US_ASCII);
            OutputStream out = s.getOutputStream();
            out.write(0x00);
            out.write(t.length + 1);
            out.write(kind);
            out.write(t);
            out.flush();
        }
    }
}
