package io.jsalt.transport.zmq;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.transport.HealthProbe;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestLimits;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.RequestServerKind;
import io.jsalt.transport.Transport;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Peers of the request port that do not speak ZMTP 3 as a REQ or DEALER should, on raw TCP connections over
 * 127.0.0.1, against both implementations: each is dropped, and a good client is answered afterwards.
 */
@ParameterizedClass
@EnumSource(RequestServerKind.class)
class RequestPortHostileInputTest {
    private static final String HOST = "127.0.0.1";
    private static final Duration ANSWER = Duration.ofSeconds(10);

    @Parameter
    RequestServerKind kind;

    private final Transport transport = Transport.create();
    private final List<RawZmtpPeer> peers = new ArrayList<>();
    private RequestServer server;

    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch holding = new CountDownLatch(1);

    @BeforeEach
    void bind() {
        server = transport.bindRequestServer(HOST, 0, 1, this::handle, RequestLimits.DEFAULTS, kind);
    }

    /** Echoes with a prefix; "hold" keeps its worker until the test ends. */
    private byte[] handle(byte[] request) {
        String text = new String(request, UTF_8);
        if (text.equals("hold")) {
            holding.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return ("re:" + text).getBytes(UTF_8);
    }

    @AfterEach
    void close() throws IOException {
        release.countDown();
        for (RawZmtpPeer p : peers) {
            p.close();
        }
        server.close();
        transport.close();
    }

    private RawZmtpPeer raw() throws IOException {
        RawZmtpPeer p = RawZmtpPeer.connected(server.port());
        peers.add(p);
        return p;
    }

    private void aGoodClientIsStillAnswered() {
        try (RequestClient client = transport.connectRequestClient(HOST, server.port())) {
            assertThat(client.request("good".getBytes(UTF_8), ANSWER)).asString(UTF_8).isEqualTo("re:good");
        }
    }

    @Test
    void theHealthProbeIsAnsweredWhileEveryWorkerIsBusy() throws Exception {
        RequestClient holder = transport.connectRequestClient(HOST, server.port());
        Thread busy = new Thread(() -> holder.request("hold".getBytes(UTF_8), Duration.ofSeconds(30)));
        busy.setDaemon(true);
        busy.start();
        try (RequestClient prober = transport.connectRequestClient(HOST, server.port())) {
            assertThat(holding.await(10, TimeUnit.SECONDS)).as("the only worker is busy").isTrue();
            assertThat(prober.request(HealthProbe.request(), ANSWER)).isEqualTo(HealthProbe.answer());
            assertThat(prober.request(HealthProbe.request(), ANSWER)).isEqualTo(HealthProbe.answer());
        } finally {
            release.countDown();
            busy.join(10_000);
            holder.close();
        }
    }

    @Test
    void aGreetingOfZmtp2IsHungUpOn() throws IOException {
        RawZmtpPeer old = raw();
        old.write(RawZmtpPeer.greeting(1, 0, "NULL"));

        assertThat(old.hungUpByServer()).isTrue();
        aGoodClientIsStillAnswered();
    }

    @Test
    void aGreetingAskingForPlainOrCurveIsHungUpOn() throws IOException {
        RawZmtpPeer plain = raw();
        plain.write(RawZmtpPeer.greeting(3, 1, "PLAIN"));
        RawZmtpPeer curve = raw();
        curve.write(RawZmtpPeer.greeting(3, 0, "CURVE"));

        assertThat(plain.hungUpByServer()).isTrue();
        assertThat(curve.hungUpByServer()).isTrue();
        aGoodClientIsStillAnswered();
    }

    @Test
    void aMessageBeforeReadyIsHungUpOn() throws IOException {
        RawZmtpPeer eager = raw();
        // in one write: the server may hang up at the first frame, before a second write
        byte[] payload = "no READY first".getBytes(UTF_8);
        ByteBuffer bytes = ByteBuffer.allocate(64 + 2 + 2 + payload.length);
        bytes.put(RawZmtpPeer.greeting()).put(new byte[] {1, 0}).put((byte) 0).put((byte) payload.length).put(payload);
        eager.write(bytes.array());

        assertThat(eager.hungUpByServer()).isTrue();
        aGoodClientIsStillAnswered();
    }

    @Test
    void aCommandOtherThanReadyFirstIsHungUpOn() throws IOException {
        RawZmtpPeer pinger = raw();
        pinger.write(RawZmtpPeer.greeting());
        pinger.sendCommand("PING", new byte[] {0, 10});

        assertThat(pinger.hungUpByServer()).isTrue();
        aGoodClientIsStillAnswered();
    }

    @Test
    void aPeerOfAnotherSocketTypeIsHungUpOn() throws IOException {
        // JeroMQ also takes a ROUTER peer, as libzmq does; the native server serves REQ and DEALER alone
        for (String type : List.of("PUB", "SUB", "PUSH", "PULL")) {
            RawZmtpPeer wrong = raw();
            wrong.write(RawZmtpPeer.greeting());
            wrong.write(RawZmtpPeer.ready(type));

            assertThat(wrong.hungUpByServer()).as(type).isTrue();
        }
        aGoodClientIsStillAnswered();
    }

    @Test
    void aFrameHeaderDeclaringMoreThanTheLimitIsHungUpOn() throws IOException {
        RawZmtpPeer liar = RawZmtpPeer.handshaken(server.port(), "REQ");
        peers.add(liar);
        liar.sendFrame(new byte[0], true);
        liar.sendHeader(RequestLimits.DEFAULT_MAX_REQUEST_BYTES + 1, false);

        assertThat(liar.hungUpByServer()).isTrue();
        aGoodClientIsStillAnswered();
    }

    @Test
    void aHalfGreetingThenSilenceHoldsNothingUp() throws IOException {
        RawZmtpPeer half = raw();
        half.write(new byte[] {(byte) 0xff, 0, 0, 0, 0, 0, 0, 0, 1, 0x7f});
        RawZmtpPeer silent = raw();

        aGoodClientIsStillAnswered();
        assertThat(half.read(10)).as("the server's signature came without waiting for the rest of ours").hasSize(10);
        assertThat(silent.read(10)).hasSize(10);
    }

    @Test
    void aLibzmqStyleGreetingInTwoStepsIsAnswered() throws IOException {
        RawZmtpPeer stepwise = raw();
        byte[] greeting = RawZmtpPeer.greeting();
        stepwise.write(java.util.Arrays.copyOf(greeting, 10));
        byte[] signature = stepwise.read(10);
        assertThat(signature[0]).isEqualTo((byte) 0xff);
        assertThat(signature[9] & 1).isEqualTo(1);
        stepwise.write(java.util.Arrays.copyOfRange(greeting, 10, 64));
        stepwise.write(RawZmtpPeer.ready("REQ"));
        assertThat(stepwise.read(54)).hasSize(54); // the rest of the server's greeting
        assertThat(stepwise.readFrameWithFlags().command()).as("the server's READY").isTrue();

        stepwise.sendFrame(new byte[0], true);
        stepwise.sendFrame("stepwise".getBytes(UTF_8), false);

        RawZmtpPeer.Frame delimiter = stepwise.readFrameWithFlags();
        RawZmtpPeer.Frame reply = stepwise.readFrameWithFlags();
        assertThat(delimiter.more()).isTrue();
        assertThat(delimiter.body()).isEmpty();
        assertThat(reply.more()).isFalse();
        assertThat(reply.body()).asString(UTF_8).isEqualTo("re:stepwise");
    }

    @Test
    void manyConnectionsOpenedAndDroppedLeaveTheServerAnswering() throws IOException {
        for (int i = 0; i < 200; i++) {
            RawZmtpPeer p = RawZmtpPeer.connected(server.port());
            if (i % 3 == 1) {
                p.write(RawZmtpPeer.greeting());
            } else if (i % 3 == 2) {
                p.write(RawZmtpPeer.greeting());
                p.write(RawZmtpPeer.ready("DEALER"));
                p.sendFrame(new byte[0], true);
                p.sendHeader(64 * 1024, false); // a request cut off half-way
                p.write(ByteBuffer.allocate(100).array());
            }
            p.close();
        }

        aGoodClientIsStillAnswered();
    }
}
