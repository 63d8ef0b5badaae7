package io.jsalt.transport.zmq;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.transport.Transport;
import org.junit.jupiter.api.Test;

/**
 * Closing a transport closes the request servers it still serves first, each on its own threads, and only
 * then its socket context: a context closed under a running server has its sockets closed by two threads,
 * which once left JeroMQ's reaper spinning forever on an empty mailbox (a suite run that never ended).
 */
class TransportCloseTest {
    @Test
    void closingTheTransportClosesTheRequestServersItStillServes() {
        Transport transport = Transport.create();
        ZmqRequestServer open = (ZmqRequestServer) transport.bindRequestServer("127.0.0.1", 0, 2, request -> request);
        ZmqRequestServer closedEarlier = (ZmqRequestServer) transport.bindRequestServer("127.0.0.1", 0, 1, request -> request);
        closedEarlier.close();

        transport.close();

        assertThat(open.closed()).isTrue();
        assertThat(routerThreads()).isZero();
    }

    private static long routerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("jsalt-req-router-")).count();
    }
}
