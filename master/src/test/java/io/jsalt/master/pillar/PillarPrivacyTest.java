package io.jsalt.master.pillar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.config.MasterConfig;
import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.Rsa;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.master.Master;
import io.jsalt.master.support.HandMadeMinion;
import io.jsalt.master.support.TestKeys;
import io.jsalt.transport.Transport;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.message.MinionSignature;
import io.jsalt.transport.message.RequestStamp;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real master on loopback with pillar_roots, and two minions made by hand that sign in over real ZeroMQ: each
 * gets its own compiled pillar, and no request, however it names the other, gives one minion the other's.
 */
class PillarPrivacyTest {
    @TempDir
    Path root;
    final KeyPair keyA = TestKeys.minion(0);
    final KeyPair keyB = TestKeys.minion(1);
    final List<AutoCloseable> toClose = new ArrayList<>();
    Transport transport;
    Master master;
    PublicKey masterPub;
    HandMadeMinion a;
    HandMadeMinion b;

    @BeforeEach
    void setUp() throws Exception {
        transport = Transport.create();
        int publishPort = freePort();
        int retPort = freePort();
        while (retPort == publishPort) {
            retPort = freePort();
        }
        MasterConfig config = MasterConfig.builder(root).interfaceAddress("127.0.0.1").publishPort(publishPort)
                .retPort(retPort).workerThreads(2).autoAccept(true).build();
        Path pillarRoot = config.pillar().roots().get("base").get(0);
        Files.createDirectories(pillarRoot);
        Files.writeString(pillarRoot.resolve("top.sls"), """
                base:
                  '*':
                    - common
                  'minion-a':
                    - secret_a
                  'minion-b':
                    - secret_b
                """);
        Files.writeString(pillarRoot.resolve("common.sls"), "site: {{ grains['site'] }}\n");
        Files.writeString(pillarRoot.resolve("secret_a.sls"), "password: only-for-a\n");
        Files.writeString(pillarRoot.resolve("secret_b.sls"), "password: only-for-b\n");
        Files.createDirectories(config.pkiDir());
        Path pem = config.pkiDir().resolve("master.pem");
        Files.writeString(pem, TestKeys.masterPrivatePem());
        Files.setPosixFilePermissions(pem, PosixFilePermissions.fromString("r--------"));
        master = new Master(config, Transport::create);
        master.start();
        toClose.add(master);
        masterPub = RsaKeys.readPublicKey(config.pkiDir().resolve("master.pub"));
        a = HandMadeMinion.start("minion-a", keyA, transport, master.requestPort(), master.publishPort(), masterPub, job -> true);
        toClose.add(a);
        b = HandMadeMinion.start("minion-b", keyB, transport, master.requestPort(), master.publishPort(), masterPub, job -> true);
        toClose.add(b);
    }

    @AfterEach
    void tearDown() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
        transport.close();
    }

    @Test
    void eachMinionGetsItsOwnPillarRenderedWithItsGrains() {
        Map<String, Object> pillarA = open(a.requestPrivate(signed("minion-a", "dc1", keyA.getPrivate())), keyA.getPrivate());
        Map<String, Object> pillarB = open(b.requestPrivate(signed("minion-b", "dc2", keyB.getPrivate())), keyB.getPrivate());

        assertThat(pillarA).isEqualTo(Map.of("site", "dc1", "password", "only-for-a"));
        assertThat(pillarB).isEqualTo(Map.of("site", "dc2", "password", "only-for-b"));
    }

    @Test
    void aMinionThatAsksUnderAnotherIdGetsNothingItCanRead() {
        // signed with its own key under the other's id: refused outright
        assertThat(a.request(signed("minion-b", "dc1", keyA.getPrivate()))).isEqualTo(false);

        // unsigned, as a salt-minion would send: the pillar is B's, but sealed for B's key alone
        Map<String, Object> reply = a.requestPrivate(load("minion-b", "dc1"));
        assertThatThrownBy(() -> open(reply, keyA.getPrivate())).isInstanceOf(RuntimeException.class);
        assertThat(open(reply, keyB.getPrivate())).containsEntry("password", "only-for-b");
        assertThat(SaltPack.pack(reply)).asString(StandardCharsets.ISO_8859_1).doesNotContain("only-for");
    }

    private static Map<String, Object> load(String id, String site) {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("id", id);
        load.put("grains", Map.of("site", site));
        load.put("saltenv", null);
        load.put("pillarenv", null);
        load.put("pillar_override", Map.of());
        load.put("extra_minion_data", Map.of());
        load.put("ver", "2");
        load.put("cmd", "_pillar");
        return load;
    }

    private static Map<String, Object> signed(String id, String site, PrivateKey key) {
        return MinionSignature.sign(RequestStamp.stamp(load(id, site), System.currentTimeMillis()), key);
    }

    /** What a minion does with a private reply: the one-off key with its own key, then the master's signature. */
    private Map<String, Object> open(Map<String, Object> reply, PrivateKey minionKey) {
        String oneOff = new String(Rsa.oaepDecrypt(minionKey, Wire.bytes(reply, "key")), StandardCharsets.US_ASCII);
        Map<String, Object> envelope = Wire.asMap(SaltPack.unpack(new Crypticle(oneOff).open(Wire.bytes(reply, "pillar"), null)));
        byte[] data = Wire.bytes(envelope, "data");
        assertThat(Rsa.verify(masterPub, data, Wire.bytes(envelope, "sig"))).isTrue();
        return Wire.map(Wire.asMap(SaltPack.unpack(data)), "pillar");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
