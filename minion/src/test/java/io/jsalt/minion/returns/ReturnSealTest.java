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
import io.jsalt.transport.message.MinionSignature;
import io.jsalt.transport.message.RequestEnvelope;
import io.jsalt.transport.message.ReturnLoad;
import io.jsalt.transport.message.ReturnMac;
import io.jsalt.transport.message.SessionCipher;
import io.jsalt.crypto.CrypticleAuthException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.SecureRandom;
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
 * How the returner proves each return's sender, against a fake master's request port on a real socket that
 * checks a MAC with the secret of its current session and a signature with the minion's key: a MAC when the
 * session has a secret, a signature when it has none, a MAC made afresh for the session a kept return finally
 * goes out under (after the master restarted), and a signature when the master refuses the MAC.
 */
class ReturnSealTest {
    private static final KeyPair MASTER = SaltVectors.masterKeyPair();
    private static final KeyPair MINION = SaltVectors.minionKeyPair();
    private static final String ID = "web-1";
    private static final String JID = "20260101000000000001";
    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path cachedir;

    /** The master's current session: what it decrypts with and whose secret it checks MACs with. */
    private volatile Session master = session(true);
    /** The session the minion speaks under. */
    private volatile Session minion = master;
    private volatile boolean refuseMacs;
    private final List<Map<String, Object>> received = new CopyOnWriteArrayList<>();
    private final List<Boolean> answers = new CopyOnWriteArrayList<>();
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

    @Test
    void aReturnGoesOutWithTheSessionsMacAndNoSignature() {
        startMaster();

        returner(ReturnSeal.of(MINION.getPrivate())).deliver(ret(), JID);

        assertThat(received).singleElement().satisfies(load -> {
            assertThat(load).containsKey(ReturnMac.FIELD).doesNotContainKey(MinionSignature.FIELD);
            assertThat(master.returnMac().valid(load)).isTrue();
        });
        assertThat(answers).containsExactly(true);
    }

    @Test
    void aReturnUnderASessionWithoutSecretIsSignedAsSaltsMinionsSignIt() {
        master = session(false);
        minion = master;
        startMaster();

        returner(ReturnSeal.of(MINION.getPrivate())).deliver(ret(), JID);

        assertThat(received).singleElement().satisfies(load -> {
            assertThat(load).doesNotContainKey(ReturnMac.FIELD);
            assertThat(MinionSignature.valid(load, MINION.getPublic())).isTrue();
        });
    }

    @Test
    void aReturnKeptWhileTheMasterRestartedIsMacedWithTheSecretOfItsNewSession() {
        ReturnOutbox outbox = new ReturnOutbox(cachedir.resolve("returns"));
        Returner r = returner(ReturnSeal.of(MINION.getPrivate()), outbox);
        r.deliver(ret(), JID); // no master: kept
        assertThat(outbox.pending()).extracting(ReturnOutbox.Entry::jid).containsExactly(JID);

        master = session(true); // the master is back with a new session key and new secrets
        minion = master; // and the minion signed in again
        startMaster();
        r.flushSoon();

        await().atMost(WAIT).until(() -> outbox.pending().isEmpty());
        assertThat(received).singleElement().satisfies(load -> assertThat(master.returnMac().valid(load)).isTrue());
        assertThat(answers).containsExactly(true);
    }

    @Test
    void aReturnMacedUnderAnOldSessionIsMacedAgainForTheSessionOfTheNextSignIn() {
        Session old = minion;
        master = session(true); // the master rotated its session key: the old one gets "bad load"
        startMaster();
        MasterChannel channel = new MasterChannel(client, () -> minion, failed -> minion = master, Duration.ofSeconds(2));
        returner = new Returner(ID, ReturnRoutes.single(channel), null, 1, 1, ReturnSeal.of(MINION.getPrivate()));

        returner.deliver(ret(), JID);

        assertThat(minion).isNotSameAs(old);
        assertThat(received).singleElement().satisfies(load -> assertThat(master.returnMac().valid(load)).isTrue());
        assertThat(answers).containsExactly(true);
    }

    @Test
    void aMacedReturnTheMasterRefusesIsSentAgainSignedAndNotLost() {
        refuseMacs = true; // a master that does not derive this secret
        startMaster();

        returner(ReturnSeal.of(MINION.getPrivate())).deliver(ret(), JID);

        assertThat(received).hasSize(2);
        assertThat(received.get(0)).containsKey(ReturnMac.FIELD);
        assertThat(MinionSignature.valid(received.get(1), MINION.getPublic())).isTrue();
        assertThat(answers).containsExactly(false, true);
    }

    @Test
    void aMinionThatDoesNotSignSendsNeitherMacNorSignature() {
        startMaster();

        returner(ReturnSeal.of(null)).deliver(ret(), JID);

        assertThat(received).singleElement().satisfies(load ->
                assertThat(load).doesNotContainKey(ReturnMac.FIELD).doesNotContainKey(MinionSignature.FIELD));
    }

    private void startMaster() {
        server = transport.bindRequestServer("127.0.0.1", port, 1, frame -> {
            Session s = master;
            SessionCipher cipher = new SessionCipher(s.crypticle());
            Map<String, Object> load;
            try {
                load = new LinkedHashMap<>(cipher.decryptRequest(RequestEnvelope.decode(frame).aesLoad()));
            } catch (CrypticleAuthException e) {
                return SaltPack.pack("bad load"); // Salt's answer to a load under another session key
            }
            String nonce = (String) load.remove("nonce");
            received.add(load);
            boolean ok = ReturnMac.carriedBy(load) ? !refuseMacs && s.returnMac().valid(load) : MinionSignature.valid(load, MINION.getPublic())
                    || !load.containsKey(MinionSignature.FIELD);
            answers.add(ok);
            return cipher.encryptReply(ok, nonce);
        });
    }

    private Returner returner(ReturnSeal seal) {
        return returner(seal, null);
    }

    private Returner returner(ReturnSeal seal, ReturnOutbox outbox) {
        MasterChannel channel = new MasterChannel(client, () -> minion, failed -> null, Duration.ofMillis(500));
        returner = new Returner(ID, ReturnRoutes.single(channel), outbox, 1, 1, seal);
        return returner;
    }

    private static Session session(boolean withSecret) {
        byte[] secret = new byte[ReturnMac.SECRET_BYTES];
        new SecureRandom().nextBytes(secret);
        return new Session(new Crypticle(Crypticle.generateKeyString()), MASTER.getPublic(), 0, withSecret ? new ReturnMac(secret) : null);
    }

    private static Map<String, Object> ret() {
        return new ReturnLoad(ID, JID, "test.ping", List.of(), true, 0, true).toLoad();
    }
}
