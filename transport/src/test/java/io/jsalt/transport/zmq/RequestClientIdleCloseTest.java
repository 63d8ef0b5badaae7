package io.jsalt.transport.zmq;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.Transport;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A minion's request connection closes once idle and opens again for the next request, so a master
 * holding thousands of quiet minions keeps one connection (one file descriptor) per minion, not two.
 */
class RequestClientIdleCloseTest {
    private static final Duration ANSWER = Duration.ofSeconds(5);

    private final Transport masterSide = Transport.create();
    private final Transport minionSide = Transport.create();
    private final RequestServer server = masterSide.bindRequestServer("127.0.0.1", 0, 1, request -> request);

    @AfterEach
    void close() {
        minionSide.close();
        server.close();
        masterSide.close();
    }

    private ZmqRequestClient client() {
        return (ZmqRequestClient) minionSide.connectRequestClient("127.0.0.1", server.port());
    }

    @Test
    void closesItsConnectionOnceIdleAndOpensANewOneForTheNextRequest() {
        ZmqRequestClient client = client();
        client.closeWhenIdle(Duration.ofMillis(200));

        assertThat(client.request("one".getBytes(UTF_8), ANSWER)).asString(UTF_8).isEqualTo("one");
        assertThat(client.isConnected()).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> !client.isConnected());

        assertThat(client.request("two".getBytes(UTF_8), ANSWER)).asString(UTF_8).isEqualTo("two");
        assertThat(client.isConnected()).isTrue();
    }

    @Test
    void withAnIdleTimeOfZeroClosesRightAfterEachAnswer() {
        ZmqRequestClient client = client();
        client.closeWhenIdle(Duration.ZERO);

        for (int i = 0; i < 3; i++) {
            assertThat(client.request(("n" + i).getBytes(UTF_8), ANSWER)).asString(UTF_8).isEqualTo("n" + i);
            assertThat(client.isConnected()).isFalse();
        }
    }

    @Test
    void keepsItsConnectionWhenNoIdleTimeIsSet() {
        ZmqRequestClient client = client();

        client.request("one".getBytes(UTF_8), ANSWER);

        await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(2)).until(client::isConnected);
    }

    @Test
    void aRequestAfterTheIdleTimerWasScheduledKeepsTheConnectionForAnotherIdlePeriod() {
        ZmqRequestClient client = client();
        client.closeWhenIdle(Duration.ofMillis(400));
        client.request("one".getBytes(UTF_8), ANSWER);

        long last = System.nanoTime();
        // keep using it for longer than the idle time: the earlier timers find it used and leave it open
        while (System.nanoTime() - last < Duration.ofMillis(900).toNanos()) {
            assertThat(client.isConnected()).isTrue();
            RequestClient same = client;
            same.request("again".getBytes(UTF_8), ANSWER);
        }

        await().atMost(Duration.ofSeconds(5)).until(() -> !client.isConnected());
    }
}
