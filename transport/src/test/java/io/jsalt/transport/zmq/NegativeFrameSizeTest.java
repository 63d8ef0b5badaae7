package io.jsalt.transport.zmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.PublishServer;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * JeroMQ 0.6.0 narrows a ZMTP frame's 8-byte size to an int without a sign check; a size with the top bit
 * set used to leave its I/O thread spinning forever, every socket of the context dead and the ports bound.
 */
class NegativeFrameSizeTest {
    private final Transport transport = Transport.create();
    private final Transport peers = Transport.create();

    @AfterEach
    void close() throws InterruptedException {
        peers.close();
        // a context whose I/O thread was lost never finishes closing: do not let a failure hang the build
        Thread closer = new Thread(transport::close, "close-probed-transport");
        closer.setDaemon(true);
        closer.start();
        closer.join(5000);
    }

    /** A ZMTP 3.0 NULL greeting, then a LARGE frame whose size is 0xFFFFFFFFFFFFFFFF. */
    private static void sendNegativeSizeFrame(int port) throws IOException {
        byte[] greeting = new byte[64];
        greeting[0] = (byte) 0xff;
        greeting[9] = 0x7f;
        greeting[10] = 3;
        System.arraycopy("NULL".getBytes(StandardCharsets.US_ASCII), 0, greeting, 12, 4);
        byte[] frame = {0x02, -1, -1, -1, -1, -1, -1, -1, -1};
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(3000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write(greeting);
            assertThat(in.readNBytes(10)).as("the server's signature").hasSize(10);
            out.write(frame);
            try {
                while (in.read() >= 0) {
                    // the rest of the server's greeting, then its hang-up
                }
            } catch (SocketTimeoutException | SocketException e) {
                // no hang-up in time: the asserts below tell whether the context survived
            }
        }
    }

    @Test
    void bothBoundSocketsKeepServingAfterAFrameWithANegativeSize() throws IOException {
        RequestServer requests = transport.bindRequestServer("127.0.0.1", 0, 1, request -> request);
        PublishServer publisher = transport.bindPublisher("127.0.0.1", 0);

        sendNegativeSizeFrame(publisher.port());
        sendNegativeSizeFrame(requests.port());

        try (RequestClient client = peers.connectRequestClient("127.0.0.1", requests.port())) {
            assertThat(client.request("still here".getBytes(), Duration.ofSeconds(5))).asString().isEqualTo("still here");
        }
        List<String> received = new CopyOnWriteArrayList<>();
        try (Subscription sub = peers.subscribe("127.0.0.1", publisher.port(), List.of(), p -> received.add(new String(p)))) {
            assertThat(sub.awaitConnected(Duration.ofSeconds(5))).isTrue();
            await().atMost(Duration.ofSeconds(5)).until(() -> {
                publisher.publish("job".getBytes());
                return !received.isEmpty();
            });
        }
        assertThat(requests.isAlive()).isTrue();
        assertThat(publisher.isAlive()).isTrue();
        requests.close();
        publisher.close();
    }

    /** True when the server hangs up after a greeting and a LARGE frame header declaring {@code size} bytes. */
    private static boolean hangsUpOnFrameDeclaring(int port, long size) throws IOException {
        byte[] greeting = new byte[64];
        greeting[0] = (byte) 0xff;
        greeting[9] = 0x7f;
        greeting[10] = 3;
        System.arraycopy("NULL".getBytes(StandardCharsets.US_ASCII), 0, greeting, 12, 4);
        byte[] frame = java.nio.ByteBuffer.allocate(9).put((byte) 0x02).putLong(size).array();
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write(greeting);
            in.readNBytes(64); // the server's greeting
            out.write(frame);
            try {
                while (in.read() >= 0) {
                    // the server's READY command, then its hang-up
                }
                return true;
            } catch (SocketTimeoutException e) {
                return false; // still waiting for the declared gigabyte: it took the size at its word
            } catch (SocketException e) {
                return true; // reset by the server
            }
        }
    }

    @Test
    void aFrameDeclaringMoreThanTheRequestLimitIsRefusedBeforeAnythingIsAllocated() throws IOException {
        RequestServer requests = transport.bindRequestServer("127.0.0.1", 0, 1, request -> request);

        assertThat(hangsUpOnFrameDeclaring(requests.port(), 1L << 30)).as("a 1 GiB frame header gets the peer dropped").isTrue();

        try (RequestClient client = peers.connectRequestClient("127.0.0.1", requests.port())) {
            assertThat(client.request("still here".getBytes(), Duration.ofSeconds(5))).asString().isEqualTo("still here");
        }
    }
}
