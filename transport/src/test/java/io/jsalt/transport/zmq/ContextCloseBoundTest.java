package io.jsalt.transport.zmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.TransportException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.zeromq.SocketType;
import org.zeromq.ZMQ;

/**
 * Closing a socket context waits for the threads that own its sockets to close them, and no longer than
 * its close wait: past it the close returns, names the sockets still open, and the context finishes on
 * its own once their owners let go. No other thread ever closes an owner's socket.
 */
class ContextCloseBoundTest {
    private static final Duration SHORT_WAIT = Duration.ofMillis(300);

    @Test
    void aSocketItsOwnerHoldsBoundsTheCloseAndIsNamedThenTheContextEndsWhenTheOwnerLetsGo() throws Exception {
        SocketContext context = new SocketContext("bound-test", 1, SHORT_WAIT);
        CountDownLatch opened = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        Thread owner = new Thread(() -> {
            ZMQ.Socket socket = context.createSocket(SocketType.PAIR);
            opened.countDown();
            try {
                letGo.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            context.destroySocket(socket);
        }, "stubborn-owner");
        owner.start();
        assertThat(opened.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(context.terminate()).as("terminated although a socket is still open").isFalse();

        assertThat(context.leftOpen()).containsExactly("PAIR opened by stubborn-owner");
        assertThat(owner.isAlive()).as("the owner was not disturbed").isTrue();
        letGo.countDown();
        owner.join(TimeUnit.SECONDS.toMillis(10));
        await().atMost(Duration.ofSeconds(10)).until(context::isTerminated);
        assertThat(context.threadFailures()).isEmpty();
    }

    @Test
    void aContextWhoseSocketsAreClosedTerminatesAndSaysNothingIsOpen() {
        SocketContext context = new SocketContext("clean-test", 1, SHORT_WAIT);
        ZMQ.Socket socket = context.createSocket(SocketType.PAIR);
        socket.bind("tcp://127.0.0.1:*");
        context.destroySocket(socket);

        assertThat(context.terminate()).isTrue();

        assertThat(context.leftOpen()).isEmpty();
        assertThat(context.isTerminated()).isTrue();
    }

    @Test
    void aSocketAskedOfAClosedContextIsATransportError() {
        SocketContext context = new SocketContext("closed-test", 1, SHORT_WAIT);
        context.terminate();

        assertThatThrownBy(() -> context.createSocket(SocketType.REQ))
                .isInstanceOf(TransportException.class).hasMessageContaining("closed");
    }

    @Test
    void aTransportWhoseHandlerOutlivesTheCloseWaitClosesCleanlyAsItsWorkersHoldNoSocket() throws Exception {
        ZmqTransport transport = new ZmqTransport(SHORT_WAIT);
        CountDownLatch inHandler = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        RequestServer server = transport.bindRequestServer("127.0.0.1", 0, 1, request -> {
            inHandler.countDown();
            try {
                finish.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return request;
        });
        RequestClient client = transport.connectRequestClient("127.0.0.1", server.port());
        Thread requester = new Thread(() -> {
            try {
                client.request(new byte[] {1}, Duration.ofSeconds(30));
            } catch (TransportException e) {
                // the transport closed under it: the way out
            }
        }, "bound-test-requester");
        requester.start();
        assertThat(inHandler.await(10, TimeUnit.SECONDS)).isTrue();

        transport.close();

        // the router thread alone owns a socket; a worker takes requests from a Java queue, so one stuck in
        // its handler holds nothing the context's termination waits for
        assertThat(transport.closedCleanly()).isTrue();
        assertThat(transport.leftOpen()).isEmpty();
        requester.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(requester.isAlive()).as("the request in flight ended with the transport").isFalse();
        finish.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.isAlive() && t.getName().equals("jsalt-mworker-0")));
        assertThat(transport.terminated()).isTrue();
        assertThat(transport.threadFailures()).isEmpty();
    }
}
