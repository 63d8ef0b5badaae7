package io.jsalt.master.request;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.master.data.MinionDataCache;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.session.SessionKey;
import io.jsalt.master.support.TestKeys;
import io.jsalt.master.targeting.TargetResolver;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.message.MinionSignature;
import io.jsalt.transport.message.SessionCipher;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An accepted minion holds the session key and can send {@code _pillar} under another id: its forged
 * grains must not take the victim out of grain targets. Through the dispatcher, as the master runs it.
 */
class PillarGrainsTrustTest {
    @TempDir
    Path pki;
    final KeyPair master = TestKeys.master();
    final KeyPair victimKey = TestKeys.minion(0);
    final KeyPair attackerKey = TestKeys.minion(1);
    final MinionDataCache data = new MinionDataCache();
    final SessionKey session = new SessionKey();
    KeyStore keys;
    RequestDispatcher dispatcher;

    @BeforeEach
    void setUp() {
        keys = new KeyStore(pki);
        keys.store(KeyState.ACCEPTED, "victim", TestKeys.pem(victimKey));
        keys.store(KeyState.ACCEPTED, "attacker", TestKeys.pem(attackerKey));
        dispatcher = new RequestDispatcher(session, Map.of(),
                Map.of("_pillar", new PillarHandler(keys, master.getPrivate(), data::putGrains)));
    }

    @Test
    void grainsSignedByTheMinionsOwnKeyAreKeptAsVerified() {
        send(MinionSignature.sign(load("victim", Map.of("role", "web", "num_cpus", 4L, "gpu", List.of())), victimKey.getPrivate()));

        assertThat(data.grains("victim")).contains(Map.of("role", "web", "num_cpus", 4L, "gpu", List.of()));
        assertThat(data.grainsVerified("victim")).isTrue();
    }

    @Test
    void grainsSignedByAnotherMinionsKeyAreRefusedAndTheVictimStaysInItsTargets() {
        send(MinionSignature.sign(load("victim", Map.of("role", "web")), victimKey.getPrivate()));

        Object answer = send(MinionSignature.sign(load("victim", Map.of("role", "decoy")), attackerKey.getPrivate()));

        assertThat(answer).isEqualTo(false);
        assertThat(data.grains("victim")).contains(Map.of("role", "web"));
        assertThat(new TargetResolver(keys, data, Map.of()).resolve("grain", "role:web").expected()).contains("victim");
    }

    @Test
    void unsignedGrainsOfASaltMinionAreKeptButCannotExcludeIt() {
        send(load("victim", Map.of("role", "decoy")));

        assertThat(data.grains("victim")).contains(Map.of("role", "decoy"));
        assertThat(data.grainsVerified("victim")).isFalse();
        TargetResolver.Resolution r = new TargetResolver(keys, data, Map.of()).resolve("grain", "role:web");
        assertThat(r.publishTo()).contains("victim");
    }

    @Test
    void unsignedGrainsCannotReplaceSignedOnes() {
        send(MinionSignature.sign(load("victim", Map.of("role", "web")), victimKey.getPrivate()));

        send(load("victim", Map.of("role", "decoy")));

        assertThat(data.grains("victim")).contains(Map.of("role", "web"));
        assertThat(data.grainsVerified("victim")).isTrue();
    }

    private Object send(Map<String, Object> load) {
        SessionCipher cipher = new SessionCipher(session.crypticle());
        String nonce = SessionCipher.newNonce();
        byte[] frame = dispatcher.handle(cipher.encryptRequest(load, nonce));
        Object decoded = SaltPack.unpack(frame);
        if (decoded instanceof Map<?, ?> m && m.containsKey("pillar")) {
            return Wire.asMap(decoded);
        }
        return cipher.decryptReply(frame, nonce);
    }

    /** A _pillar load as a salt-minion 3006 sends it. */
    private static Map<String, Object> load(String id, Map<String, Object> grains) {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("id", id);
        load.put("grains", grains);
        load.put("saltenv", null);
        load.put("pillarenv", null);
        load.put("pillar_override", Map.of());
        load.put("extra_minion_data", Map.of());
        load.put("ver", "2");
        load.put("cmd", "_pillar");
        return load;
    }
}
