package io.jsalt.master.request;

import static io.jsalt.master.request.Answers.answer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.Rsa;
import io.jsalt.master.data.MinionDataCache;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.jobs.JobReturn;
import io.jsalt.master.jobs.MemoryJobCache;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.request.AuthHandler.Policy;
import io.jsalt.master.session.ReturnMacKeys;
import io.jsalt.master.session.SessionKey;
import io.jsalt.master.support.RecordedEvents;
import io.jsalt.master.support.TestKeys;
import io.jsalt.master.targeting.TargetResolver;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.message.AuthRequest;
import io.jsalt.transport.message.ReturnLoad;
import io.jsalt.transport.message.ReturnMac;
import io.jsalt.transport.message.SignInBlock;
import io.jsalt.transport.message.SignedClear;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The return MAC from end to end on the master's side: the secret a jsalt minion gets in its sign-in reply
 * (the real {@link AuthHandler}), opened with its key as a minion opens it, then the returns it MACs, judged by
 * the real {@link ReturnHandler} under the strict policy (signatures required).
 */
class ReturnMacTest {
    private static final String JID = "20260101120000123456";
    private static final String NONCE = "0123456789abcdef0123456789abcdef";

    @TempDir
    Path pki;
    KeyStore keys;
    final SessionKey session = new SessionKey();
    final MemoryJobCache jobs = new MemoryJobCache();
    final RecordedEvents events = new RecordedEvents();
    final KeyPair master = TestKeys.master();
    final KeyPair web1 = TestKeys.minion(1);
    final KeyPair web2 = TestKeys.minion(2);
    ReturnMacKeys macs;
    AuthHandler auth;
    ReturnHandler returns;

    @BeforeEach
    void setUp() {
        keys = new KeyStore(pki);
        keys.store(KeyState.ACCEPTED, "web1", TestKeys.pem(web1));
        keys.store(KeyState.ACCEPTED, "web2", TestKeys.pem(web2));
        EventBus bus = new EventBus();
        bus.addListener(events);
        macs = new ReturnMacKeys(master.getPrivate(), session);
        auth = new AuthHandler(keys, master, session, bus, () -> new Policy(false, false, 0), 24505, new io.jsalt.master.session.SignIns(),
                macs);
        returns = new ReturnHandler(keys, jobs, bus, new Jids(), new MinionTrust(keys, () -> true),
                new TargetResolver(keys, new MinionDataCache(), Map.of()), macs);
        jobs.saveJob(new Job(JID, "test.ping", List.of(), "web*", "glob", "root", List.of("web1", "web2"), Instant.now()));
    }

    @AfterEach
    void tearDown() {
        jobs.close();
    }

    @Test
    void takesAReturnMacedWithTheSecretOfItsSignInAsVerified() {
        ReturnMac mac = secretOf(signIn("web1", web1, true), web1);

        assertThat(answer(returns.handle(wire(mac.seal(ret("web1", JID).toLoad())), null))).isEqualTo(true);

        assertThat(jobs.returns(JID)).singleElement().extracting(JobReturn::id, JobReturn::verified).containsExactly("web1", true);
        assertThat(events.tagged("salt/job/" + JID + "/ret/web1").get(0).data()).containsEntry("verified", true)
                .doesNotContainKey(ReturnMac.FIELD).doesNotContainKey("sig");
    }

    @Test
    void refusesAReturnAnotherMinionMacedWithItsOwnSecretUnderTheVictimsId() {
        ReturnMac web2Secret = secretOf(signIn("web2", web2, true), web2);

        assertThat(answer(returns.handle(wire(web2Secret.seal(ret("web1", JID).toLoad())), null))).isEqualTo(false);

        assertThat(jobs.returns(JID)).isEmpty();
        assertThat(events.tags()).noneMatch(tag -> tag.startsWith("salt/job/"));
    }

    @Test
    void aSignInUnderAnotherMinionsIdWithItsPublicKeyNeitherRevealsNorReplacesItsSecret() {
        ReturnMac web1Secret = secretOf(signIn("web1", web1, true), web1);
        // web2 asks to sign in as web1, presenting web1's public key (anyone may: it is public)
        Map<String, Object> stolen = signIn("web1", web1, true);

        assertThatThrownBy(() -> secretOf(stolen, web2)).isInstanceOf(CryptoException.class);
        assertThat(answer(returns.handle(wire(web1Secret.seal(ret("web1", JID).toLoad())), null))).isEqualTo(true);
    }

    @Test
    void aMacedReturnSentAgainIsStoredOnce() {
        ReturnMac mac = secretOf(signIn("web1", web1, true), web1);
        Map<String, Object> sealed = mac.seal(ret("web1", JID).toLoad());

        assertThat(answer(returns.handle(wire(sealed), null))).isEqualTo(true);
        // answered true (stored already: with several masters the minion must forget it), neither stored nor fired again
        assertThat(answer(returns.handle(wire(sealed), null))).isEqualTo(true);

        assertThat(jobs.returns(JID)).hasSize(1);
    }

    @Test
    void refusesAMacedReturnMovedToAnotherJobOrChanged() {
        String other = "20260101120000999999";
        jobs.saveJob(new Job(other, "test.ping", List.of(), "web*", "glob", "root", List.of("web1", "web2"), Instant.now()));
        ReturnMac mac = secretOf(signIn("web1", web1, true), web1);
        Map<String, Object> moved = new LinkedHashMap<>(mac.seal(ret("web1", JID).toLoad()));
        moved.put("jid", other);
        Map<String, Object> changed = new LinkedHashMap<>(mac.seal(ret("web1", JID).toLoad()));
        changed.put("return", "forged");

        assertThat(answer(returns.handle(wire(moved), null))).isEqualTo(false);
        assertThat(answer(returns.handle(wire(changed), null))).isEqualTo(false);
        assertThat(jobs.returns(other)).isEmpty();
        assertThat(jobs.returns(JID)).isEmpty();
    }

    @Test
    void refusesAReturnMacedWithTheSecretOfAnEarlierSessionKey() {
        ReturnMac stale = secretOf(signIn("web1", web1, true), web1);
        session.rotate("a key was deleted");

        assertThat(answer(returns.handle(wire(stale.seal(ret("web1", JID).toLoad())), null))).isEqualTo(false);

        ReturnMac fresh = secretOf(signIn("web1", web1, true), web1);
        assertThat(answer(returns.handle(wire(fresh.seal(ret("web1", JID).toLoad())), null))).isEqualTo(true);
    }

    @Test
    void everySignInUnderOneSessionKeyGetsTheSameSecret() {
        ReturnMac first = secretOf(signIn("web1", web1, true), web1);
        ReturnMac second = secretOf(signIn("web1", web1, true), web1);
        Map<String, Object> load = ret("web1", JID).toLoad();

        assertThat(second.seal(load)).isEqualTo(first.seal(load));
    }

    @Test
    void refusesAMacedReturnOfAMinionWhoseKeyWasReplaced() {
        ReturnMac old = secretOf(signIn("web1", web1, true), web1);
        keys.delete("web1");
        keys.store(KeyState.ACCEPTED, "web1", TestKeys.pem(TestKeys.minion(3)));

        assertThat(answer(returns.handle(wire(old.seal(ret("web1", JID).toLoad())), null))).isEqualTo(false);
    }

    @Test
    void aMacedReturnPinsTheMinionAsASignatureDoes() {
        returns = new ReturnHandler(keys, jobs, new EventBus(), new Jids(), new MinionTrust(keys, () -> false),
                new TargetResolver(keys, new MinionDataCache(), Map.of()), macs);
        ReturnMac mac = secretOf(signIn("web1", web1, true), web1);
        String second = "20260101120000654321";
        jobs.saveJob(new Job(second, "test.ping", List.of(), "web*", "glob", "root", List.of("web1", "web2"), Instant.now()));

        assertThat(answer(returns.handle(wire(mac.seal(ret("web1", JID).toLoad())), null))).isEqualTo(true);
        assertThat(answer(returns.handle(wire(ret("web1", second).toLoad()), null))).isEqualTo(false);
    }

    @Test
    void aSaltMinionsSignInReplyCarriesNoSecret() {
        Map<String, Object> salts = signIn("web1", web1, false);
        Map<String, Object> jsalts = signIn("web1", web1, true);

        assertThat(salts).doesNotContainKey(ReturnMac.KEY_FIELD).doesNotContainKey(SignInBlock.ASK);
        assertThat(jsalts).containsKey(ReturnMac.KEY_FIELD);
        Map<String, Object> withoutSecret = new LinkedHashMap<>(jsalts);
        withoutSecret.remove(ReturnMac.KEY_FIELD);
        assertThat(withoutSecret.keySet()).containsExactlyElementsOf(salts.keySet());
    }

    // --- the one-block sign-in (SignInBlock): session key and secret in aes alone, the token not opened

    @Test
    void aOneBlockSignInCarriesSessionKeyAndTheSameSecretInAesAloneAndLeavesTheTokenClosed() {
        byte[] token = Crypticle.generateKeyString().getBytes(StandardCharsets.US_ASCII);
        ReturnMac threeBlocks = secretOf(signIn("web1", web1, true), web1);
        // a token the master key cannot open: the Salt form warns and leaves it out, the one block never opens it
        byte[] forAnotherMaster = Rsa.oaepEncrypt(web2.getPublic(), token);

        Map<String, Object> reply = oneBlockSignIn("web1", web1, forAnotherMaster);

        assertThat(reply).containsEntry(SignInBlock.ASK, SignInBlock.FORMAT).doesNotContainKey("token")
                .doesNotContainKey(ReturnMac.KEY_FIELD);
        SignInBlock.Opened block = SignInBlock.open(reply, web1.getPrivate());
        assertThat(block.sessionKey()).isEqualTo(session.keyString());
        byte[] sig = Rsa.x931PublicDecrypt(master.getPublic(), Wire.bytes(reply, "sig"));
        assertThat(new String(sig, StandardCharsets.US_ASCII)).isEqualTo(AuthHandler.sha256Hex(session.keyString()));
        Map<String, Object> sealed = block.returnMac().seal(ret("web1", JID).toLoad());
        assertThat(sealed).isEqualTo(threeBlocks.seal(ret("web1", JID).toLoad())); // the one derived secret, either form
        assertThat(answer(returns.handle(wire(sealed), null))).isEqualTo(true);
    }

    @Test
    void aOneBlockSignInUnderAnotherMinionsIdWithItsPublicKeyNeitherRevealsNorReplacesItsSecret() {
        ReturnMac web1Secret = SignInBlock.open(oneBlockSignIn("web1", web1, null), web1.getPrivate()).returnMac();
        Map<String, Object> stolen = oneBlockSignIn("web1", web1, null); // web2 asks as web1, with web1's public key

        assertThatThrownBy(() -> SignInBlock.open(stolen, web2.getPrivate())).isInstanceOf(CryptoException.class);
        assertThat(answer(returns.handle(wire(web1Secret.seal(ret("web1", JID).toLoad())), null))).isEqualTo(true);
    }

    @Test
    void theOneBlockIsOnlyGivenWithAReturnSecret() {
        Map<String, Object> load = new AuthRequest("web1", NONCE, TestKeys.pem(web1), null).toLoad();
        load.put(SignInBlock.ASK, SignInBlock.FORMAT); // without ReturnMac.ASK

        Map<String, Object> reply = SignedClear.open(auth.handle(wire(load)), master.getPublic());

        assertThat(reply.keySet()).containsExactlyElementsOf(signIn("web1", web1, false).keySet());
    }

    private Map<String, Object> oneBlockSignIn(String id, KeyPair presented, byte[] encryptedToken) {
        Map<String, Object> load = new AuthRequest(id, NONCE, TestKeys.pem(presented), encryptedToken).toLoad();
        load.put(ReturnMac.ASK, ReturnMac.ALGORITHM);
        load.put(SignInBlock.ASK, SignInBlock.FORMAT);
        return SignedClear.open(auth.handle(wire(load)), master.getPublic());
    }

    @Test
    void aMasterWithoutReturnMacsRefusesEveryMacedReturn() {
        ReturnMac mac = secretOf(signIn("web1", web1, true), web1);
        ReturnHandler withoutMacs = new ReturnHandler(keys, jobs, new EventBus(), new Jids(), new MinionTrust(keys, () -> true),
                new TargetResolver(keys, new MinionDataCache(), Map.of()));

        assertThat(answer(withoutMacs.handle(wire(mac.seal(ret("web1", JID).toLoad())), null))).isEqualTo(false);
        assertThat(jobs.returns(JID)).isEmpty();
    }

    private Map<String, Object> signIn(String id, KeyPair presented, boolean asksForSecret) {
        Map<String, Object> load = new AuthRequest(id, NONCE, TestKeys.pem(presented), null).toLoad();
        if (asksForSecret) {
            load.put(ReturnMac.ASK, ReturnMac.ALGORITHM);
        }
        return SignedClear.open(auth.handle(wire(load)), master.getPublic());
    }

    private static ReturnMac secretOf(Map<String, Object> reply, KeyPair minion) {
        return ReturnMac.fromSignInReply(reply, minion.getPrivate()).orElseThrow();
    }

    private static ReturnLoad ret(String id, String jid) {
        return new ReturnLoad(id, jid, "test.ping", List.of(), "pong", 0, true);
    }

    /** The load as the dispatcher hands it over: through Salt's packing and back, nonce removed. */
    private static Map<String, Object> wire(Map<String, Object> load) {
        return Wire.asMap(SaltPack.unpack(SaltPack.pack(load)));
    }
}
