package io.jsalt.minion.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.crypto.Crypticle;
import io.jsalt.minion.auth.Session;
import io.jsalt.minion.testing.SaltVectors;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.RequestTimeoutException;
import io.jsalt.transport.Transport;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.message.RequestEnvelope;
import io.jsalt.transport.message.SessionCipher;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Encrypted requests under the session key, against a fake master on a real request socket. */
class MasterChannelTest {
    /** Long enough that a loaded machine (CI's two cores) never turns a fake master's slow answer into a timeout. */
    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(15);
    private final Crypticle oldKey = new Crypticle(Crypticle.generateKeyString());
    private final Crypticle newKey = new Crypticle(Crypticle.generateKeyString());
    private final Session oldSession = new Session(oldKey, SaltVectors.masterKeyPair().getPublic(), 0);
    private final Session newSession = new Session(newKey, SaltVectors.masterKeyPair().getPublic(), 0);

    private Transport transport;
    private RequestServer server;
    private RequestClient client;
    /** The key the fake master holds now; requests under any other get Salt's "bad load". */
    private final AtomicReference<Crypticle> masterKey = new AtomicReference<>(oldKey);
    private final List<Map<String, Object>> received = new CopyOnWriteArrayList<>();
    private final List<Session> reauthenticatedFrom = new CopyOnWriteArrayList<>();
    private final AtomicReference<Session> current = new AtomicReference<>(oldSession);

    @BeforeEach
    void startFakeMaster() {
        transport = Transport.create();
        server = transport.bindRequestServer("127.0.0.1", 0, 1, frame -> {
            SessionCipher cipher = new SessionCipher(masterKey.get());
            Map<String, Object> load;
            try {
                load = new LinkedHashMap<>(cipher.decryptRequest(RequestEnvelope.decode(frame).aesLoad()));
            } catch (RuntimeException e) {
                return SaltPack.pack("bad load");
            }
            received.add(load);
            return cipher.encryptReply(Map.of("echo", load.get("cmd")), (String) load.get("nonce"));
        });
        client = transport.connectRequestClient("127.0.0.1", server.port());
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
        transport.close();
    }

    private MasterChannel channel(java.util.function.Function<Session, Session> reauthenticate) {
        return new MasterChannel(client, current::get, failed -> {
            reauthenticatedFrom.add(failed);
            return reauthenticate.apply(failed);
        }, ANSWER_TIMEOUT);
    }

    @Test
    void sendsTheLoadEncryptedWithANonceAndReturnsTheDecryptedAnswer() {
        Object answer = channel(s -> null).send(Map.of("cmd", "_minion_event", "id", "web-1"));

        assertThat(answer).isEqualTo(Map.of("echo", "_minion_event"));
        assertThat(received).hasSize(1);
        assertThat(received.get(0)).containsEntry("id", "web-1");
        assertThat((String) received.get(0).get("nonce")).matches("[0-9a-f]{32}");
        assertThat(reauthenticatedFrom).isEmpty();
    }

    @Test
    void eachRequestCarriesItsOwnNonce() {
        MasterChannel channel = channel(s -> null);

        channel.send(Map.of("cmd", "a"));
        channel.send(Map.of("cmd", "b"));

        assertThat(received.get(0).get("nonce")).isNotEqualTo(received.get(1).get("nonce"));
    }

    @Test
    void withoutASessionRefusesToSendAnything() {
        current.set(null);

        assertThatThrownBy(() -> channel(s -> newSession).send(Map.of("cmd", "x"))).isInstanceOf(NotSignedInException.class);
        assertThat(received).isEmpty();
        assertThat(reauthenticatedFrom).isEmpty();
    }

    @Test
    void afterAKeyRotationSignsInAgainOnceAndResendsUnderTheNewKey() {
        masterKey.set(newKey);

        Object answer = channel(failed -> {
            current.set(newSession);
            return newSession;
        }).send(Map.of("cmd", "_return"));

        assertThat(answer).isEqualTo(Map.of("echo", "_return"));
        assertThat(reauthenticatedFrom).containsExactly(oldSession);
        assertThat(received).hasSize(1);
    }

    @Test
    void whenSigningInAgainFailsSaysItIsNotSignedIn() {
        masterKey.set(newKey);

        assertThatThrownBy(() -> channel(failed -> null).send(Map.of("cmd", "_return"))).isInstanceOf(NotSignedInException.class);
        assertThat(reauthenticatedFrom).containsExactly(oldSession);
    }

    @Test
    void doesNotSignInAgainMoreThanOncePerRequest() {
        masterKey.set(newKey);
        Session stillWrong = new Session(new Crypticle(Crypticle.generateKeyString()), oldSession.masterKey(), 0);

        assertThatThrownBy(() -> channel(failed -> stillWrong).send(Map.of("cmd", "_return")))
                .isInstanceOf(io.jsalt.crypto.CryptoException.class);
        assertThat(reauthenticatedFrom).containsExactly(oldSession);
    }

    @Test
    void aMasterThatDoesNotAnswerIsATimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                RequestClient toSilent = transport.connectRequestClient("127.0.0.1", silent.getLocalPort())) {
            MasterChannel channel = new MasterChannel(toSilent, current::get, s -> null, Duration.ofMillis(300));

            assertThatThrownBy(() -> channel.send(Map.of("cmd", "x"))).isInstanceOf(RequestTimeoutException.class);
        }
    }

    @Test
    void aPrivateReplyThatFailsItsChecksIsFinalAndSignsInAgainForNothing() {
        RequestServer forged = transport.bindRequestServer("127.0.0.1", 0, 1, frame -> SaltPack.pack(Map.of(
                "key", new byte[256], "pillar", new byte[64])));
        try (RequestClient toForged = transport.connectRequestClient("127.0.0.1", forged.port())) {
            MasterChannel channel = new MasterChannel(toForged, current::get, failed -> {
                reauthenticatedFrom.add(failed);
                return newSession;
            }, ANSWER_TIMEOUT);

            assertThatThrownBy(() -> channel.sendForPrivateReply(Map.of("cmd", "_pillar"), "pillar",
                    SaltVectors.minionKeyPair().getPrivate())).isInstanceOf(io.jsalt.crypto.CryptoException.class)
                    .isNotInstanceOf(StaleSessionException.class);
            assertThat(reauthenticatedFrom).isEmpty();
        } finally {
            forged.close();
        }
    }

    @Test
    void aBadLoadToAPrivateRequestSignsInAgainOnceAndNoMore() {
        masterKey.set(newKey);

        assertThatThrownBy(() -> channel(failed -> oldSession).sendForPrivateReply(Map.of("cmd", "_pillar"), "pillar",
                SaltVectors.minionKeyPair().getPrivate())).isInstanceOf(StaleSessionException.class);
        assertThat(reauthenticatedFrom).containsExactly(oldSession);
    }
}
