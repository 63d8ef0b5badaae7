package io.jsalt.master.support;

import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.Rsa;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.message.AuthReply;
import io.jsalt.transport.message.AuthRequest;
import io.jsalt.transport.message.Publication;
import io.jsalt.transport.message.RequestEnvelope;
import io.jsalt.transport.message.ReturnLoad;
import io.jsalt.transport.message.SessionCipher;
import io.jsalt.transport.message.SignedClear;
import io.jsalt.transport.message.Topics;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.PublicKey;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A minion made by hand from transport classes, for master tests: it signs in (the master must accept it),
 * subscribes to every publication and to its own topic, and answers each publication with a signed return computed by
 * {@code answers} from the publication's load. Its thread ({@code hand-made-minion-<id>}) owns the request
 * client; close it to stop.
 */
public final class HandMadeMinion implements AutoCloseable {
    /** Waits on an answer or a connection, so long only when the machine is loaded: a fast one is not slowed. */
    private static final Duration WAIT = Duration.ofSeconds(90);

    private final String id;
    private final KeyPair key;
    private final RequestClient client;
    private final Subscription subscription;
    private final SessionCipher cipher;
    private final Thread answering;
    private final BlockingQueue<byte[]> publications = new LinkedBlockingQueue<>();
    private volatile boolean running = true;

    private HandMadeMinion(String id, KeyPair key, Transport transport, int publishPort, RequestClient client, String session,
                           PublicKey masterPub, Function<Map<String, Object>, Object> answers) {
        this.id = id;
        this.key = key;
        this.client = client;
        this.cipher = new SessionCipher(new Crypticle(session));
        this.subscription = transport.subscribe("127.0.0.1", publishPort, List.of(new byte[0], Topics.ofMinion(id)),
                publications::add); // everything, as a jsalt minion, and its own topic so that it is seen present
        this.answering = new Thread(() -> answer(masterPub, answers), "hand-made-minion-" + id);
        answering.setDaemon(true);
        answering.start();
    }

    /** Signs in as {@code id} and starts answering; returns once the subscription is connected. */
    public static HandMadeMinion start(String id, KeyPair key, Transport transport, int requestPort, int publishPort,
                                       PublicKey masterPub, Function<Map<String, Object>, Object> answers) {
        RequestClient client = transport.connectRequestClient("127.0.0.1", requestPort);
        String nonce = SessionCipher.newNonce();
        byte[] token = ("the-token-of-" + id).getBytes(StandardCharsets.US_ASCII);
        byte[] reply = client.request(RequestEnvelope.clear(new AuthRequest(id, nonce, TestKeys.pem(key),
                Rsa.oaepEncrypt(masterPub, token)).toLoad()).encode(), WAIT);
        AuthReply auth = AuthReply.fromLoad(SignedClear.open(reply, masterPub));
        if (auth.outcome() != AuthReply.Outcome.ACCEPTED) {
            client.close();
            throw new IllegalStateException(id + " was not accepted: " + auth.outcome());
        }
        String session = new String(Rsa.oaepDecrypt(key.getPrivate(), auth.aes()), StandardCharsets.US_ASCII);
        HandMadeMinion minion = new HandMadeMinion(id, key, transport, publishPort, client, session, masterPub, answers);
        if (!minion.subscription.awaitConnected(WAIT)) {
            minion.stop();
            throw new IllegalStateException(id + " could not subscribe");
        }
        return minion;
    }

    /** Sends an AES request on this minion's session (from the test's thread: only while nothing is published). */
    public synchronized Object request(Map<String, Object> load) {
        String nonce = SessionCipher.newNonce();
        return cipher.decryptReply(client.request(cipher.encryptRequest(load, nonce), WAIT), nonce);
    }

    /**
     * Sends an AES request whose reply is not under the session key (a {@code _pillar}'s private reply) and returns
     * that reply as it came, unpacked.
     */
    public synchronized Map<String, Object> requestPrivate(Map<String, Object> load) {
        String nonce = SessionCipher.newNonce();
        return Wire.asMap(io.jsalt.transport.codec.SaltPack.unpack(client.request(cipher.encryptRequest(load, nonce), WAIT)));
    }

    private void answer(PublicKey masterPub, Function<Map<String, Object>, Object> answers) {
        while (running) {
            byte[] frame;
            try {
                frame = publications.poll(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (frame == null) {
                continue;
            }
            Map<String, Object> job = Publication.decode(frame, cipher.crypticle(), masterPub, true);
            ReturnLoad ret = new ReturnLoad(id, Wire.string(job, "jid"), Wire.string(job, "fun"), Wire.optList(job, "arg"),
                    answers.apply(job), 0, true);
            request(ret.toSignedLoad(key.getPrivate()));
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    private void stop() {
        running = false;
        try {
            answering.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        subscription.close();
        client.close();
    }
}
