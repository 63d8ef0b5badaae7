package io.jsalt.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.jsalt.config.MasterConfig;
import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.Rsa;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.master.events.LocalEventClient;
import io.jsalt.master.events.LocalEventServer;
import io.jsalt.master.jobs.JobReturn;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.request.ClientKey;
import io.jsalt.master.support.TestKeys;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import io.jsalt.transport.TransportException;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.event.EventFrame;
import io.jsalt.transport.message.AuthReply;
import io.jsalt.transport.message.AuthRequest;
import io.jsalt.transport.message.Publication;
import io.jsalt.transport.message.PublishRequest;
import io.jsalt.transport.message.RequestEnvelope;
import io.jsalt.transport.message.ReturnLoad;
import io.jsalt.transport.message.SessionCipher;
import io.jsalt.transport.message.SignedClear;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole master in this JVM, on free loopback ports, with a minion made by hand from transport classes. */
class MasterTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String ID = "hand-made";

    @TempDir
    Path root;
    /** The sockets of the hand-made minion and client. */
    Transport transport;
    final List<AutoCloseable> toClose = new ArrayList<>();
    final KeyPair minion = TestKeys.minion(1);
    int publishPort;
    int retPort;

    @BeforeEach
    void setUp() throws IOException {
        transport = Transport.create();
        publishPort = freePort();
        retPort = freePort();
        while (retPort == publishPort) {
            retPort = freePort();
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
        transport.close();
    }

    @Test
    void aHandMadeMinionSignsInReceivesAJobAndItsSignedReturnIsTaken() throws Exception {
        MasterConfig config = config(true);
        Master master = start(config);
        LocalEventClient events = LocalEventClient.connect(config.sockDir(), WAIT);
        toClose.add(events);
        PublicKey masterPub = RsaKeys.readPublicKey(config.pkiDir().resolve("master.pub"));
        RequestClient client = transport.connectRequestClient("127.0.0.1", master.requestPort());
        toClose.add(client);

        String session = signIn(client, masterPub);
        assertThat(master.keys().stateOf(ID)).contains(KeyState.ACCEPTED);

        BlockingQueue<byte[]> publications = new LinkedBlockingQueue<>();
        Subscription sub = transport.subscribe("127.0.0.1", master.publishPort(), List.of(), publications::add);
        toClose.add(sub);
        assertThat(sub.awaitConnected(WAIT)).isTrue();
        String secret = ClientKey.read(config.cachedir(), System.getProperty("user.name"));
        Map<String, Object> job = await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).until(() -> {
            Map<String, Object> reply = Wire.asMap(SaltPack.unpack(client.request(RequestEnvelope.clear(
                    new PublishRequest("hand-*", "test.ping", List.of(), "glob", "tester", secret, Map.of()).toLoad()).encode(), WAIT)));
            assertThat(Wire.map(reply, "load")).containsEntry("minions", List.of(ID));
            byte[] frame = publications.poll();
            return frame == null ? null : Publication.decode(frame, new Crypticle(session), masterPub, true);
        }, java.util.Objects::nonNull);
        String jid = Wire.string(job, "jid");
        assertThat(job).containsEntry("fun", "test.ping").containsEntry("tgt", "hand-*");

        SessionCipher cipher = new SessionCipher(new Crypticle(session));
        ReturnLoad ret = new ReturnLoad(ID, jid, "test.ping", List.of(), true, 0, true);
        String nonce = SessionCipher.newNonce();
        Object answer = cipher.decryptReply(client.request(cipher.encryptRequest(ret.toSignedLoad(minion.getPrivate()), nonce), WAIT), nonce);

        assertThat(answer).isEqualTo(true);
        assertThat(master.jobs().returns(jid)).extracting(JobReturn::id).containsExactly(ID);
        assertThat(master.jobs().job(jid)).isPresent();
        List<String> tags = new ArrayList<>();
        String wanted = "salt/job/" + jid + "/ret/" + ID;
        while (!tags.contains(wanted)) {
            Optional<EventFrame> e = events.next(WAIT);
            assertThat(e).as("events so far: %s", tags).isPresent();
            tags.add(e.get().tag());
        }
        assertThat(tags.get(0)).isEqualTo("salt/auth");
        assertThat(tags).contains("salt/job/" + jid + "/new");
    }

    @Test
    void aReturnSignedByAnotherKeyIsRefusedOverTheWire() throws Exception {
        MasterConfig config = config(true);
        Master master = start(config);
        PublicKey masterPub = RsaKeys.readPublicKey(config.pkiDir().resolve("master.pub"));
        RequestClient client = transport.connectRequestClient("127.0.0.1", master.requestPort());
        toClose.add(client);
        SessionCipher cipher = new SessionCipher(new Crypticle(signIn(client, masterPub)));
        String jid = "20260101120000123456";
        ReturnLoad ret = new ReturnLoad(ID, jid, "test.ping", List.of(), true, 0, true);
        String nonce = SessionCipher.newNonce();

        Object answer = cipher.decryptReply(client.request(
                cipher.encryptRequest(ret.toSignedLoad(TestKeys.minion(2).getPrivate()), nonce), WAIT), nonce);

        assertThat(answer).isEqualTo(false);
        assertThat(master.jobs().returns(jid)).isEmpty();
    }

    @Test
    void deletingAMinionsKeyThroughWheelRotatesTheSessionKey() throws Exception {
        MasterConfig config = config(true);
        Master master = start(config);
        PublicKey masterPub = RsaKeys.readPublicKey(config.pkiDir().resolve("master.pub"));
        RequestClient client = transport.connectRequestClient("127.0.0.1", master.requestPort());
        toClose.add(client);
        SessionCipher cipher = new SessionCipher(new Crypticle(signIn(client, masterPub)));
        Map<String, Object> wheel = new LinkedHashMap<>();
        wheel.put("cmd", "wheel");
        wheel.put("fun", "key.delete");
        wheel.put("match", ID);
        wheel.put("key", ClientKey.read(config.cachedir(), System.getProperty("user.name")));

        Map<String, Object> reply = Wire.asMap(SaltPack.unpack(client.request(RequestEnvelope.clear(wheel).encode(), WAIT)));

        // Salt's answer: what still matches afterwards, nothing once the key is gone
        assertThat(Wire.map(Wire.map(reply, "load"), "data")).containsEntry("return", Map.of()).containsEntry("success", true);
        byte[] stale = client.request(cipher.encryptRequest(
                new ReturnLoad(ID, "20260101120000123456", "test.ping", List.of(), true, 0, true).toSignedLoad(minion.getPrivate()),
                SessionCipher.newNonce()), WAIT);
        assertThat(SaltPack.unpack(stale)).isEqualTo("bad load");
    }

    @Test
    void closeReleasesThePortsSoASecondMasterCanStartOnThem() throws Exception {
        MasterConfig config = config(false);
        Master first = new Master(config, Transport::create);
        first.start();
        assertThat(first.publishPort()).isEqualTo(publishPort);
        assertThat(first.requestPort()).isEqualTo(retPort);

        first.close();

        Master second = start(config);
        assertThat(second.requestPort()).isEqualTo(retPort);
        PublicKey masterPub = RsaKeys.readPublicKey(config.pkiDir().resolve("master.pub"));
        RequestClient client = transport.connectRequestClient("127.0.0.1", retPort);
        toClose.add(client);
        byte[] reply = client.request(RequestEnvelope.clear(
                new AuthRequest(ID, SessionCipher.newNonce(), TestKeys.pem(minion), null).toLoad()).encode(), WAIT);
        assertThat(SignedClear.open(reply, masterPub)).containsEntry("ret", true);
        assertThat(second.keys().stateOf(ID)).contains(KeyState.PENDING);
        LocalEventClient events = LocalEventClient.connect(config.sockDir(), WAIT);
        toClose.add(events);
    }

    @Test
    void aMasterThatCannotBindItsRequestPortReleasesWhatItOpened() throws Exception {
        MasterConfig config = config(false);
        try (ServerSocket taken = new ServerSocket(retPort, 50, InetAddress.getLoopbackAddress())) {
            Master master = new Master(config, Transport::create);
            assertThatThrownBy(master::start).isInstanceOf(TransportException.class);
        }

        assertThat(LocalEventServer.socketPath(config.sockDir())).doesNotExist();
        Master again = start(config);
        assertThat(again.publishPort()).isEqualTo(publishPort);
    }

    @Test
    void makesAMasterKeyOnFirstStartAndKeepsItAcrossRestarts() {
        MasterConfig config = unseededConfig(false);
        start(config).close();
        PublicKey first = RsaKeys.readPublicKey(config.pkiDir().resolve("master.pub"));

        start(config);

        assertThat(RsaKeys.readPublicKey(config.pkiDir().resolve("master.pub"))).isEqualTo(first);
        assertThat(first).isNotEqualTo(TestKeys.master().getPublic());
    }

    // --- helpers

    /** Signs in as {@link #ID} and checks the reply as a minion does; returns the session key. */
    private String signIn(RequestClient client, PublicKey masterPub) {
        String nonce = SessionCipher.newNonce();
        byte[] token = "the-token-of-the-hand-made-minion".getBytes(StandardCharsets.US_ASCII);
        byte[] reply = client.request(RequestEnvelope.clear(new AuthRequest(ID, nonce, TestKeys.pem(minion),
                Rsa.oaepEncrypt(masterPub, token)).toLoad()).encode(), WAIT);
        AuthReply auth = AuthReply.fromLoad(SignedClear.open(reply, masterPub));
        assertThat(auth.outcome()).isEqualTo(AuthReply.Outcome.ACCEPTED);
        assertThat(auth.nonce()).isEqualTo(nonce);
        assertThat(auth.publishPort()).isEqualTo(publishPort);
        assertThat(Rsa.oaepDecrypt(minion.getPrivate(), auth.token())).isEqualTo(token);
        return new String(Rsa.oaepDecrypt(minion.getPrivate(), auth.aes()), StandardCharsets.US_ASCII);
    }

    /** A master with a socket context of its own, which it closes; {@link #transport} is the hand-made minion's. */
    private Master start(MasterConfig config) {
        Master master = new Master(config, Transport::create);
        master.start();
        toClose.add(master);
        return master;
    }

    /** A config on this test's ports, with a master key already in the pki folder (generating one is slow). */
    private MasterConfig config(boolean autoAccept) {
        MasterConfig config = unseededConfig(autoAccept);
        try {
            Files.createDirectories(config.pkiDir());
            Path pem = config.pkiDir().resolve("master.pem");
            if (!Files.exists(pem)) {
                Files.writeString(pem, TestKeys.masterPrivatePem());
                Files.setPosixFilePermissions(pem, PosixFilePermissions.fromString("r--------"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return config;
    }

    private MasterConfig unseededConfig(boolean autoAccept) {
        return MasterConfig.builder(root)
                .interfaceAddress("127.0.0.1")
                .publishPort(publishPort)
                .retPort(retPort)
                .workerThreads(2)
                .autoAccept(autoAccept)
                .build();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
