package io.jsalt.master.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.CryptoException;
import io.jsalt.master.session.SessionKey;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.message.RequestEnvelope;
import io.jsalt.transport.message.SessionCipher;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RequestDispatcherTest {
    private static final byte[] BAD_LOAD = SaltPack.pack("bad load");

    final SessionKey session = new SessionKey();
    final List<Map<String, Object>> clearCalls = new CopyOnWriteArrayList<>();
    final List<Map<String, Object>> aesCalls = new CopyOnWriteArrayList<>();
    RequestDispatcher dispatcher;
    SessionCipher cipher;

    @BeforeEach
    void setUp() {
        ClearCommand ping = load -> {
            clearCalls.add(load);
            return SaltPack.pack(Map.of("enc", "clear", "load", Map.of("pong", true)));
        };
        AesCommand echo = (load, nonce) -> {
            aesCalls.add(load);
            return Map.of("echo", load.getOrDefault("value", "none"));
        };
        AesCommand fails = (load, nonce) -> {
            throw new WireException("field 'x' is missing");
        };
        AesCommand privately = (load, nonce) -> new PrivateReply(Map.of("key", "k", "pillar", "p"));
        dispatcher = new RequestDispatcher(session, Map.of("ping", ping),
                Map.of("_echo", echo, "_fails", fails, "_private", privately));
        cipher = new SessionCipher(session.crypticle());
    }

    @Test
    void dispatchesAKnownClearCommand() {
        byte[] reply = dispatcher.handle(clear(Map.of("cmd", "ping")));

        assertThat(unpack(reply)).isEqualTo(Map.of("enc", "clear", "load", Map.of("pong", true)));
        assertThat(clearCalls).singleElement().isEqualTo(Map.of("cmd", "ping"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"_auth", "_echo", "__init__", "getClass", "PING", "ping ", "../ping", ""})
    void refusesAnUnknownClearCommandWithoutInvokingAnything(String cmd) {
        byte[] reply = dispatcher.handle(clear(Map.of("cmd", cmd)));

        assertThat(unpack(reply)).isEqualTo(Map.of("enc", "clear", "load", Map.of("error", "unknown command")));
        assertThat(clearCalls).isEmpty();
        assertThat(aesCalls).isEmpty();
    }

    @Test
    void refusesAClearCommandThatIsNotAString() {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", List.of("ping"));
        assertThat(unpack(dispatcher.handle(clear(load)))).isEqualTo(Map.of("enc", "clear", "load", Map.of("error", "unknown command")));
        assertThat(unpack(dispatcher.handle(clear(Map.of("no", "cmd"))))).isEqualTo(Map.of("enc", "clear", "load", Map.of("error", "unknown command")));
        assertThat(clearCalls).isEmpty();
    }

    @Test
    void dispatchesAnAesCommandAndEncryptsTheAnswerWithTheRequestNonce() {
        String nonce = SessionCipher.newNonce();

        byte[] reply = dispatcher.handle(cipher.encryptRequest(Map.of("cmd", "_echo", "value", "hi"), nonce));

        assertThat(cipher.decryptReply(reply, nonce)).isEqualTo(Map.of("echo", "hi"));
        assertThatThrownBy(() -> cipher.decryptReply(reply, SessionCipher.newNonce())).isInstanceOf(CryptoException.class);
        assertThatThrownBy(() -> new SessionCipher(new Crypticle(Crypticle.generateKeyString())).decryptReply(reply, nonce))
                .isInstanceOf(CryptoException.class);
    }

    @Test
    void theCommandSeesTheLoadWithoutItsNonce() {
        dispatcher.handle(cipher.encryptRequest(Map.of("cmd", "_echo", "value", "hi"), SessionCipher.newNonce()));

        assertThat(aesCalls).singleElement().isEqualTo(Map.of("cmd", "_echo", "value", "hi"));
    }

    @Test
    void anAesRequestWithoutANonceGetsAnAnswerWithoutOne() {
        byte[] frame = RequestEnvelope.aes(session.crypticle().seal(SaltPack.pack(Map.of("cmd", "_echo", "value", 7)), null)).encode();

        byte[] reply = dispatcher.handle(frame);

        Object answer = SaltPack.unpack(session.crypticle().open(Wire.asBytes(SaltPack.unpack(reply)), null));
        assertThat(answer).isEqualTo(Map.of("echo", 7L));
    }

    @ParameterizedTest
    @ValueSource(strings = {"_auth", "publish", "_pillar_and_more", "__class__", "_ECHO", ""})
    void refusesAnUnknownAesCommandWithoutInvokingAnything(String cmd) {
        String nonce = SessionCipher.newNonce();

        byte[] reply = dispatcher.handle(cipher.encryptRequest(Map.of("cmd", cmd), nonce));

        assertThat(cipher.decryptReply(reply, nonce)).isEqualTo(false);
        assertThat(aesCalls).isEmpty();
        assertThat(clearCalls).isEmpty();
    }

    @Test
    void answersBadLoadToAFrameThatIsNotARequest() {
        List<byte[]> frames = List.of(
                new byte[0],
                "not msgpack at all".getBytes(StandardCharsets.US_ASCII),
                new byte[] {(byte) 0xc1},
                new byte[] {(byte) 0xdf, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff},
                SaltPack.pack("a string"),
                SaltPack.pack(List.of("enc", "clear")),
                SaltPack.pack(Map.of("load", Map.of("cmd", "ping"))),
                SaltPack.pack(Map.of("enc", "rsa", "load", Map.of("cmd", "ping"))),
                SaltPack.pack(Map.of("enc", "clear", "load", "ping")),
                SaltPack.pack(Map.of("enc", "aes", "load", List.of(1, 2))),
                SaltPack.pack(Map.of("enc", "clear", "load", Map.of("cmd", "ping"), "version", "two")));

        for (byte[] frame : frames) {
            assertThat(dispatcher.handle(frame)).isEqualTo(BAD_LOAD);
        }
        assertThat(clearCalls).isEmpty();
        assertThat(aesCalls).isEmpty();
    }

    @Test
    void answersBadLoadToAnAesLoadUnderAnotherSessionKey() {
        SessionCipher stranger = new SessionCipher(new Crypticle(Crypticle.generateKeyString()));

        byte[] reply = dispatcher.handle(stranger.encryptRequest(Map.of("cmd", "_echo"), SessionCipher.newNonce()));

        assertThat(reply).isEqualTo(BAD_LOAD);
        assertThat(aesCalls).isEmpty();
    }

    @Test
    void answersBadLoadAfterTheSessionKeyRotated() {
        byte[] before = cipher.encryptRequest(Map.of("cmd", "_echo"), SessionCipher.newNonce());

        session.rotate("test");

        assertThat(dispatcher.handle(before)).isEqualTo(BAD_LOAD);
        String nonce = SessionCipher.newNonce();
        SessionCipher fresh = new SessionCipher(session.crypticle());
        assertThat(fresh.decryptReply(dispatcher.handle(fresh.encryptRequest(Map.of("cmd", "_echo", "value", 1), nonce)), nonce))
                .isEqualTo(Map.of("echo", 1L));
    }

    @Test
    void answersBadLoadToATamperedAesLoad() {
        byte[] blob = session.crypticle().seal(SaltPack.pack(Map.of("cmd", "_echo", "nonce", SessionCipher.newNonce())), null);
        blob[20] ^= 1;

        assertThat(dispatcher.handle(RequestEnvelope.aes(blob).encode())).isEqualTo(BAD_LOAD);
        assertThat(aesCalls).isEmpty();
    }

    @Test
    void refusesAnAesLoadThatIsNotAMap() {
        byte[] blob = session.crypticle().seal(SaltPack.pack(List.of("cmd", "_echo")), null);

        Object reply = unpack(dispatcher.handle(RequestEnvelope.aes(blob).encode()));

        assertThat(reply).isInstanceOf(Map.class);
        assertThat(Wire.map(Wire.asMap(reply), "load")).containsKey("error");
        assertThat(aesCalls).isEmpty();
    }

    @Test
    void answersBadLoadToAMalformedNonce() {
        List<Object> nonces = List.of("short", "0123456789ABCDEF0123456789ABCDEF", "0123456789abcdef0123456789abcdeg",
                "0123456789abcdef0123456789abcdef0", 12345L, List.of("x"), "../../../../../../../../etc/passw");
        for (Object nonce : nonces) {
            Map<String, Object> load = new LinkedHashMap<>();
            load.put("cmd", "_echo");
            load.put("nonce", nonce);
            byte[] frame = RequestEnvelope.aes(session.crypticle().seal(SaltPack.pack(load), null)).encode();

            assertThat(dispatcher.handle(frame)).as(String.valueOf(nonce)).isEqualTo(BAD_LOAD);
        }
        assertThat(aesCalls).isEmpty();
    }

    @Test
    void aCommandsWireErrorBecomesAnErrorReplyAndTheDispatcherGoesOn() {
        byte[] reply = dispatcher.handle(cipher.encryptRequest(Map.of("cmd", "_fails"), SessionCipher.newNonce()));

        assertThat(unpack(reply)).isEqualTo(Map.of("enc", "clear", "load", Map.of("error", "field 'x' is missing")));
        String nonce = SessionCipher.newNonce();
        assertThat(cipher.decryptReply(dispatcher.handle(cipher.encryptRequest(Map.of("cmd", "_echo", "value", 2), nonce)), nonce))
                .isEqualTo(Map.of("echo", 2L));
    }

    @Test
    void aPrivateReplyIsSentAsIsNotUnderTheSessionKey() {
        byte[] reply = dispatcher.handle(cipher.encryptRequest(Map.of("cmd", "_private"), SessionCipher.newNonce()));

        assertThat(unpack(reply)).isEqualTo(Map.of("key", "k", "pillar", "p"));
    }

    private static byte[] clear(Map<String, Object> load) {
        return RequestEnvelope.clear(load).encode();
    }

    private static Object unpack(byte[] frame) {
        return SaltPack.unpack(frame);
    }
}
