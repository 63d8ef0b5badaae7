package io.jsalt.minion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.config.MinionConfig;
import io.jsalt.minion.testing.FakeMaster;
import io.jsalt.minion.testing.SaltVectors;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Transport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * A whole minion instance whose request port is answered by a rogue in front of a fake master, on real
 * sockets: the first sign-in reply is larger than the minion's max_reply_size. Such a reply used to end
 * the sign-in loop for good; now it costs one attempt.
 */
class RogueMasterReplyTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int MAX_REPLY = 64 * 1024;

    @TempDir
    Path root;

    private final Transport transport = Transport.create();
    private final FakeMaster master = new FakeMaster(transport);
    private final ZContext rogueContext = new ZContext();
    private volatile boolean relaying = true;
    private Thread relay;
    private Minion minion;

    @AfterEach
    void stop() throws InterruptedException {
        if (minion != null) {
            minion.close();
        }
        // the relay's thread closes its own socket: a ZMQ socket closed from another thread while it is in recv()
        // trips JeroMQ's assertions (zmq.Own.unregisterTermAck) and leaves the context unclosable
        relaying = false;
        if (relay != null) {
            relay.join(WAIT.toMillis());
            assertThat(relay.isAlive()).as("the rogue relay stopped").isFalse();
        }
        rogueContext.close();
        master.close();
        transport.close();
    }

    /** A ROUTER that answers the first request with {@code hugeReply} bytes and relays the rest to the fake master. */
    private int rogue(int hugeReply, AtomicInteger requests) {
        ZMQ.Socket router = rogueContext.createSocket(SocketType.ROUTER);
        router.setLinger(0);
        int port = router.bindToRandomPort("tcp://127.0.0.1");
        router.setReceiveTimeOut(100);
        relay = new Thread(() -> {
            try (Transport own = Transport.create(); RequestClient toMaster = own.connectRequestClient("127.0.0.1", master.requestPort())) {
                while (relaying) {
                    byte[] identity = router.recv(0);
                    if (identity == null) {
                        continue;
                    }
                    router.recv(0);
                    byte[] request = router.recv(0);
                    byte[] reply = requests.incrementAndGet() == 1 ? new byte[hugeReply] : toMaster.request(request, WAIT);
                    router.sendMore(identity);
                    router.sendMore(new byte[0]);
                    router.send(reply, 0);
                }
            } finally {
                rogueContext.destroySocket(router);
            }
        }, "rogue-request-port");
        relay.setDaemon(true);
        relay.start();
        return port;
    }

    @Test
    void aSignInReplyAboveMaxReplySizeCostsOneAttemptAndTheMinionSignsIn() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        int port = rogue(4 * 1024 * 1024, requests);
        MinionConfig config = MinionConfig.builder(root).id("web-1")
                .master("127.0.0.1").masterPort(port).publishPort(master.publishPort())
                .acceptanceWaitTime(0.1).authTimeout(2).randomReauthDelay(0)
                .reconDefault(100).reconRandomize(false)
                .set("max_reply_size", MAX_REPLY)
                .build();
        Files.createDirectories(config.pkiDir());
        Files.writeString(config.pkiDir().resolve("minion.pem"), SaltVectors.text("keys/minion.pem"));
        Files.writeString(config.pkiDir().resolve("minion.pub"), SaltVectors.text("keys/minion.pub"));

        minion = new Minion(config, transport);
        minion.start();

        await().atMost(WAIT).until(() -> minion.state() == Minion.State.SIGNED_IN);
        assertThat(requests.get()).as("the huge reply was sent, then the minion asked again").isGreaterThanOrEqualTo(2);
        assertThat(master.auths()).isNotEmpty();
    }
}
