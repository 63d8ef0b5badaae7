package io.jsalt.minion.returns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.crypto.Crypticle;
import io.jsalt.minion.auth.Session;
import io.jsalt.minion.channel.MasterChannel;
import io.jsalt.minion.testing.SaltVectors;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.Transport;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.message.RequestEnvelope;
import io.jsalt.transport.message.ReturnLoad;
import io.jsalt.transport.message.SessionCipher;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Returns against a fake master's request port on a real socket: one that is not there yet, one that
 * takes returns, one that refuses them as duplicates.
 */
class ReturnerTest {
    private static final KeyPair MASTER = SaltVectors.masterKeyPair();
    private static final KeyPair MINION = SaltVectors.minionKeyPair();
    private static final String ID = "web-1";
    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path cachedir;

    private final Session session = new Session(new Crypticle(Crypticle.generateKeyString()), MASTER.getPublic(), 0);
    private final List<Map<String, Object>> received = new CopyOnWriteArrayList<>();
    private static final Object BAD_LOAD = new Object();
    private volatile Object answer = true;
    /** What signing in again yields: the same session, as when the master kept its key. */
    private volatile boolean reauthWorks;
    private Transport transport;
    private RequestServer server;
    private RequestClient client;
    private Returner returner;
    private int port;

    @BeforeEach
    void connect() throws IOException {
        transport = Transport.create();
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        client = transport.connectRequestClient("127.0.0.1", port);
    }

    @AfterEach
    void stop() {
        if (returner != null) {
            returner.close();
        }
        client.close();
        if (server != null) {
            server.close();
        }
        transport.close();
    }

    private void startMaster() {
        server = transport.bindRequestServer("127.0.0.1", port, 1, frame -> {
            SessionCipher cipher = new SessionCipher(session.crypticle());
            Map<String, Object> load = new LinkedHashMap<>(cipher.decryptRequest(RequestEnvelope.decode(frame).aesLoad()));
            String nonce = (String) load.remove("nonce");
            received.add(load);
            if (answer == BAD_LOAD) {
                return SaltPack.pack("bad load"); // what Salt's master answers a load it cannot decrypt
            }
            return cipher.encryptReply(answer, nonce);
        });
    }

    private ReturnOutbox outbox() {
        return new ReturnOutbox(cachedir.resolve("returns"));
    }

    private Returner returner(ReturnOutbox outbox) {
        MasterChannel channel = new MasterChannel(client, () -> session, failed -> reauthWorks ? session : null, Duration.ofMillis(300));
        returner = new Returner(ID, channel, outbox, 1, 1);
        return returner;
    }

    private static Map<String, Object> ret(String jid, Object value) {
        return new ReturnLoad(ID, jid, "test.echo", List.of(value), value, 0, true).toSignedLoad(MINION.getPrivate());
    }

    @Test
    void aReturnTheMasterTakesAtOnceNeverTouchesTheDisk() {
        startMaster();
        ReturnOutbox outbox = outbox();

        returner(outbox).deliver(ret("20260101000000000001", "now"), "20260101000000000001");

        assertThat(received).extracting(m -> m.get("return")).containsExactly("now");
        assertThat(outbox.dir()).isEmptyDirectory();
    }

    @Test
    void aReturnTheMasterDidNotAnswerIsKeptAndDeliveredOnceWhenTheMasterIsBack() {
        ReturnOutbox outbox = outbox();
        Returner r = returner(outbox);

        r.deliver(ret("20260101000000000002", "while away"), "20260101000000000002");
        assertThat(outbox.pending()).extracting(ReturnOutbox.Entry::jid).containsExactly("20260101000000000002");

        startMaster();

        await().atMost(WAIT).until(() -> received.size() == 1 && outbox.pending().isEmpty());
        await().during(Duration.ofMillis(1500)).atMost(WAIT).until(() -> received.size() == 1);
        assertThat(received.get(0)).containsEntry("jid", "20260101000000000002").containsEntry("return", "while away");
        assertThat(ReturnLoad.signatureValid(received.get(0), MINION.getPublic())).as("still signed by the minion").isTrue();
    }

    @Test
    void returnsKeptByAnEarlierRunAreSentOnFlushOldestFirst() {
        ReturnOutbox outbox = outbox();
        outbox.put("req", ret("req", "scheduled"));
        outbox.put("20260101000000000004", ret("20260101000000000004", "later"));
        outbox.put("20260101000000000003", ret("20260101000000000003", "earlier"));
        startMaster();

        returner(outbox()).flushSoon();

        await().atMost(WAIT).until(() -> received.size() == 3 && outbox.pending().isEmpty());
        assertThat(received).extracting(m -> m.get("return")).containsExactly("earlier", "later", "scheduled");
    }

    @Test
    void aKeptReturnTheMasterRefusesAsADuplicateIsRemovedAndNotSentAgain() {
        ReturnOutbox outbox = outbox();
        outbox.put("20260101000000000005", ret("20260101000000000005", "again"));
        answer = false; // jsalt's master answers False to a second return for the same (jid, id)
        startMaster();

        returner(outbox).flushSoon();

        await().atMost(WAIT).until(() -> received.size() == 1 && outbox.pending().isEmpty());
        await().during(Duration.ofMillis(1500)).atMost(WAIT).until(() -> received.size() == 1);
    }

    @Test
    void aFlushStopsAtTheFirstReturnTheMasterDoesNotAnswerAndKeepsTheRest() {
        ReturnOutbox outbox = outbox();
        outbox.put("20260101000000000006", ret("20260101000000000006", 6));
        outbox.put("20260101000000000007", ret("20260101000000000007", 7));
        Returner r = returner(outbox);

        r.flushSoon();

        await().during(Duration.ofMillis(500)).atMost(WAIT).until(() -> outbox.pending().size() == 2);
        startMaster();
        await().atMost(WAIT).until(() -> received.size() == 2 && outbox.pending().isEmpty());
    }

    @Test
    void aReturnTheMasterCannotReadEvenAfterSigningInAgainIsKeptNotLost() {
        answer = BAD_LOAD;
        reauthWorks = true;
        startMaster();
        ReturnOutbox outbox = outbox();

        returner(outbox).deliver(ret("20260101000000000008", 8), "20260101000000000008");

        assertThat(received).as("sent, then sent again after signing in again").hasSize(2);
        assertThat(outbox.pending()).extracting(ReturnOutbox.Entry::jid).containsExactly("20260101000000000008");
        answer = true;
        await().atMost(WAIT).until(() -> outbox.pending().isEmpty());
        assertThat(received).hasSize(3);
    }
}
