package io.jsalt.transport.zmq;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.Transport;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A minion's or a tool's transport: a context sized for a handful of sockets that still does the real work. */
class OneProcessTransportTest {
    @Test
    void itsContextHasJeroMqsDefaultRoomWhileTheSharedOneKeepsRoomForAHostOfMinions() {
        try (SocketContext small = new SocketContext("small", 1, Duration.ofSeconds(1), ZmqTransport.ONE_PROCESS_MAX_SOCKETS);
                SocketContext shared = new SocketContext("shared", 1, Duration.ofSeconds(1))) {
            assertThat(small.getContext().getMaxSockets()).isEqualTo(1024);
            assertThat(shared.getContext().getMaxSockets()).isEqualTo(32_768);
        }
    }

    @Test
    void aRequestCrossesFromAOneProcessTransportToAServer() {
        try (Transport server = Transport.create(); Transport client = Transport.createForOneProcess()) {
            RequestServer rs = server.bindRequestServer("127.0.0.1", 0, 1, request -> ("re:" + new String(request, UTF_8)).getBytes(UTF_8));
            RequestClient rc = client.connectRequestClient("127.0.0.1", rs.port());
            assertThat(new String(rc.request("ping".getBytes(UTF_8), Duration.ofSeconds(10)), UTF_8)).isEqualTo("re:ping");
        }
    }
}
