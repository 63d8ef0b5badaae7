package io.jsalt.transport.zmq;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/** A bound port queues as many pending connections as Salt's zmq_backlog, not JeroMQ's 100. */
class BindBacklogTest {
    @Test
    void aBoundSocketQueuesAThousandPendingConnections() {
        try (ZContext context = new ZContext(1)) {
            ZMQ.Socket socket = context.createSocket(SocketType.XPUB);

            Endpoints.bind(socket, "127.0.0.1", 0);

            assertThat(socket.getBacklog()).isEqualTo(1000);
        }
    }
}
