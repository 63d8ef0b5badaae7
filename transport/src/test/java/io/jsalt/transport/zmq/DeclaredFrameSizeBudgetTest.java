package io.jsalt.transport.zmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestLimits;
import io.jsalt.transport.RequestServerKind;
import io.jsalt.transport.Transport;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.zeromq.ZContext;

/**
 * Clients of the request port that only declare sizes, on raw ZMTP 3.0 connections over 127.0.0.1. JeroMQ
 * reserves a frame's declared size when its header arrives; five idle connections each declaring 60 MiB
 * used to take a 256 MiB master down. One budget now bounds what all connections hold together.
 */
@ParameterizedClass
@EnumSource(RequestServerKind.class)
class DeclaredFrameSizeBudgetTest {
    @Parameter
    RequestServerKind kind;
    private static final String HOST = "127.0.0.1";
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final int MIB = 1024 * 1024;

    private final ZContext context = new ZContext();
    private final Transport clients = Transport.create();
    private final List<RawZmtpPeer> attackers = new ArrayList<>();
    private OwnedRequestServer server;

    @AfterEach
    void close() throws IOException {
        for (RawZmtpPeer a : attackers) {
            a.close();
        }
        clients.close();
        if (server != null) {
            server.close();
        }
        context.close();
    }

    private OwnedRequestServer serve(long maxRequest, long inflight) {
        RequestLimits limits = new RequestLimits(maxRequest, inflight);
        server = kind == RequestServerKind.NATIVE ? NativeRequestServer.start(HOST, 0, 2, request -> request, limits)
                : ZmqRequestServer.start(context, HOST, 0, 2, request -> request, limits);
        return server;
    }

    private RawZmtpPeer attacker() throws IOException {
        RawZmtpPeer peer = RawZmtpPeer.handshaken(server.port(), "REQ");
        attackers.add(peer);
        return peer;
    }

    private String echo(byte[] payload) {
        try (RequestClient client = clients.connectRequestClient(HOST, server.port())) {
            return Arrays.equals(client.request(payload, WAIT), payload) ? "echoed" : "garbled";
        }
    }

    @Test
    void idleConnectionsDeclaringFramesHoldNoMoreThanTheBudgetTogether() throws IOException {
        serve(16 * MIB, 40 * MIB);
        for (int i = 0; i < 12; i++) {
            RawZmtpPeer peer = attacker();
            peer.sendFrame(new byte[0], true); // the REQ delimiter
            peer.sendHeader(15 * MIB, false); // then a 15 MiB body that never comes
        }
        await().atMost(WAIT).until(() -> server.refusedFrames() >= 10);
        assertThat(server.inflightBytes()).as("two 15 MiB frames fit in 40 MiB, the other ten were refused")
                .isEqualTo(30L * MIB);

        assertThat(echo("ping".getBytes())).as("small requests are served while the budget is spent").isEqualTo("echoed");
        assertThat(echo(new byte[5 * MIB])).as("and a large one that still fits").isEqualTo("echoed");
        assertThat(server.inflightBytes()).as("an answered request's bytes went back at once").isEqualTo(30L * MIB);
    }

    @Test
    void aRequestWithARefusedFrameIsNeverServed() throws IOException {
        serve(16 * MIB, 16 * MIB);
        RawZmtpPeer holder = attacker();
        holder.sendFrame(new byte[0], true);
        holder.sendHeader(12 * MIB, false);
        await().atMost(WAIT).until(() -> server.inflightBytes() == 12L * MIB);

        RawZmtpPeer refused = attacker();
        refused.sendFrame(new byte[0], true);
        refused.sendHeader(6 * MIB, false);
        await().atMost(WAIT).until(() -> server.refusedFrames() == 1);
        // the body is then read as frames of its own: a msgpack map, as every Salt request is
        refused.sendBytes(new byte[] {(byte) 0x82, (byte) 0xa4, 'l', 'o', 'a', 'd', 0, 0, 0, 0, 0});
        assertThat(refused.receivesAFrame()).as("no answer ever comes").isFalse();
        assertThat(server.inflightBytes()).isEqualTo(12L * MIB);
        assertThat(echo("ping".getBytes())).isEqualTo("echoed");
    }

    @Test
    void aSizeWithTheTopBitSetCannotSlipPastTheLimitAsItsLow32Bits() throws IOException {
        serve(1 * MIB, 4 * MIB);
        RawZmtpPeer peer = attacker();
        peer.sendFrame(new byte[0], true);
        // JeroMQ 0.6.0 compares this as a negative long (below any limit), then allocates its low 32 bits: 1.75 GiB
        peer.sendHeader(0x8000_0000_7000_0000L, false);
        await().atMost(WAIT).until(() -> server.refusedFrames() == 1);
        assertThat(server.inflightBytes()).isZero();
        assertThat(echo("ping".getBytes())).isEqualTo("echoed");
    }

    @Test
    void aFrameDeclaringMoreThanMaxRequestSizeGetsItsConnectionDropped() throws IOException {
        serve(1 * MIB, 4 * MIB);
        RawZmtpPeer peer = attacker();
        peer.sendFrame(new byte[0], true);
        peer.sendHeader(60L * MIB, false);
        assertThat(peer.hungUpByServer()).isTrue();
        assertThat(server.inflightBytes()).isZero();
        assertThat(echo("ping".getBytes())).isEqualTo("echoed");
    }

    @Test
    void theBytesOfAConnectionClosedHalfWayComeBackToTheBudget() throws IOException {
        serve(16 * MIB, 16 * MIB);
        RawZmtpPeer peer = attacker();
        peer.sendFrame(new byte[0], true);
        peer.sendHeader(10 * MIB, false);
        peer.sendBytes(new byte[MIB]);
        await().atMost(WAIT).until(() -> server.inflightBytes() == 10L * MIB);

        peer.close();
        // the half-read frame is JeroMQ's until its connection is gone; the budget gets it back when it is collected
        await().atMost(WAIT).until(() -> {
            System.gc();
            return server.inflightBytes() == 0;
        });
        assertThat(echo(new byte[12 * MIB])).isEqualTo("echoed");
    }
}
