package io.jsalt.transport.message;

import static io.jsalt.transport.message.Vectors.RUN1;
import static io.jsalt.transport.message.Vectors.RUN2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.Rsa;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** PublishLoad, ReturnLoad and MinionEvent read from the loads salt 3006.8 decrypted to. */
class LoadVectorsTest {

    private static Map<String, Object> publishLoad(String number) {
        return Publication.decode(Vectors.frame(RUN1, number), Vectors.sessionCrypticle(RUN1, 0), Vectors.masterPub(), true);
    }

    private static Map<String, Object> requestLoad(String run, String number, int keyIndex) {
        byte[] blob = RequestEnvelope.decode(Vectors.frame(run, number)).aesLoad();
        return new SessionCipher(Vectors.sessionCrypticle(run, keyIndex)).decryptRequest(blob);
    }

    @Test
    void readsThePingPublication() {
        PublishLoad load = PublishLoad.fromLoad(publishLoad("010"));

        assertThat(load.fun()).isEqualTo("test.ping");
        assertThat(load.arg()).isEmpty();
        assertThat(load.tgt()).isEqualTo("*");
        assertThat(load.tgtType()).isEqualTo("glob");
        assertThat(load.jid()).isEqualTo("20261122064514029059");
        assertThat(load.ret()).isEmpty();
        assertThat(load.user()).isEqualTo("root");
    }

    @Test
    void readsTheArgsAndKwargsOfTestArg() {
        PublishLoad load = PublishLoad.fromLoad(publishLoad("019"));

        assertThat(load.fun()).isEqualTo("test.arg");
        assertThat(load.arg()).hasSize(2);
        assertThat(load.arg().get(0)).isEqualTo(1L);
        assertThat(Wire.asMap(load.arg().get(1))).containsEntry("__kwarg__", true).containsEntry("two", 2L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"010", "013", "016", "019"})
    void packsAPublishLoadPlusSerialExactlyAsSaltDid(String number) {
        Map<String, Object> described = Vectors.described(RUN1, number);
        Map<String, Object> load = PublishLoad.fromLoad(publishLoad(number)).toLoad();
        load.put("serial", Vectors.path(described, "load_crypticle", "serial"));

        assertThat(SaltPack.pack(load)).isEqualTo(Vectors.hex((String) Vectors.path(described, "load_crypticle", "msgpack_hex")));
    }

    @Test
    void readsAListTargetAndRefusesATargetOfAnotherShape() {
        Map<String, Object> m = new LinkedHashMap<>(publishLoad("010"));
        m.put("tgt", List.of("vector-minion"));
        m.put("tgt_type", "list");
        assertThat(PublishLoad.fromLoad(m).tgt()).isEqualTo(List.of("vector-minion"));

        m.put("tgt", Map.of("a", 1));
        assertThatThrownBy(() -> PublishLoad.fromLoad(m)).isInstanceOf(WireException.class).hasMessageContaining("tgt");
        m.remove("tgt");
        assertThatThrownBy(() -> PublishLoad.fromLoad(m)).isInstanceOf(WireException.class);
    }

    @Test
    void defaultsAnAbsentTargetTypeToGlob() {
        Map<String, Object> m = new LinkedHashMap<>(publishLoad("010"));
        m.remove("tgt_type");
        m.remove("ret");
        m.remove("user");

        PublishLoad load = PublishLoad.fromLoad(m);

        assertThat(load.tgtType()).isEqualTo("glob");
        assertThat(load.ret()).isEmpty();
        assertThat(load.user()).isEmpty();
    }

    @ParameterizedTest(name = "{0}{1}")
    @CsvSource({
        "frames/run1-auto-accept/, 011, 0, test.ping",
        "frames/run1-auto-accept/, 014, 0, test.echo",
        "frames/run1-auto-accept/, 017, 0, cmd.run",
        "frames/run1-auto-accept/, 020, 0, test.arg",
        "frames/run1-auto-accept/, 027, 1, test.ping",
        "frames/run1-auto-accept/, 032, 1, test.ping",
        "frames/run2-pending-then-accepted-zmq-filtering/, 018, 0, test.ping",
        "frames/run2-pending-then-accepted-zmq-filtering/, 021, 0, test.ping",
        "frames/run2-pending-then-accepted-zmq-filtering/, 024, 0, test.echo",
    })
    void readsEveryCapturedJobReturn(String run, String number, int keyIndex, String fun) {
        Map<String, Object> raw = requestLoad(run, number, keyIndex);

        ReturnLoad ret = ReturnLoad.fromLoad(raw);

        assertThat(ret.id()).isEqualTo("vector-minion");
        assertThat(ret.fun()).isEqualTo(fun);
        // salt-call's local run (027) reports under the jid "req"
        assertThat(ret.jid()).isEqualTo(raw.get("jid")).matches("\\d{20}|req");
        assertThat(ret.retcode()).isZero();
        assertThat(ret.success()).isTrue();
        assertThat(Vectors.toVectorJson(ret.ret())).isEqualTo(Vectors.toVectorJson(raw.get("return")));
        assertThat(Vectors.toVectorJson(ret.funArgs())).isEqualTo(Vectors.toVectorJson(raw.get("fun_args")));
    }

    @Test
    void readsTheReturnValuesOfEchoCmdRunAndTestArg() {
        assertThat(ReturnLoad.fromLoad(requestLoad(RUN1, "011", 0)).ret()).isEqualTo(true);
        assertThat(ReturnLoad.fromLoad(requestLoad(RUN1, "014", 0)).ret()).isEqualTo("hello");
        assertThat(ReturnLoad.fromLoad(requestLoad(RUN1, "017", 0)).ret()).isEqualTo("hi");
        ReturnLoad arg = ReturnLoad.fromLoad(requestLoad(RUN1, "020", 0));
        assertThat(Wire.list(Wire.asMap(arg.ret()), "args")).containsExactly(1L);
        assertThat(Wire.map(Wire.asMap(arg.ret()), "kwargs")).containsEntry("two", 2L);
        assertThat(arg.funArgs()).hasSize(2);
    }

    @Test
    void packsAReturnLoadInSaltsFieldOrder() {
        Map<String, Object> described = Vectors.described(RUN1, "011");
        Map<String, Object> raw = requestLoad(RUN1, "011", 0);
        Map<String, Object> load = ReturnLoad.fromLoad(raw).toLoad();
        load.put("user", raw.get("user"));
        load.put("_stamp", raw.get("_stamp"));
        load.put("nonce", raw.get("nonce"));

        assertThat(SaltPack.pack(load)).isEqualTo(Vectors.hex((String) Vectors.path(described, "load_crypticle", "msgpack_hex")));
    }

    @Test
    void refusesAReturnFromAnInvalidMinionId() {
        Map<String, Object> raw = new LinkedHashMap<>(requestLoad(RUN1, "011", 0));
        raw.put("id", "../minions/victim");

        assertThatThrownBy(() -> ReturnLoad.fromLoad(raw)).isInstanceOf(WireException.class).hasMessageContaining("minion id");
    }

    @Test
    void derivesSuccessFromTheRetcodeWhenAbsent() {
        Map<String, Object> raw = new LinkedHashMap<>(requestLoad(RUN1, "011", 0));
        raw.remove("success");
        raw.put("retcode", 2L);

        ReturnLoad ret = ReturnLoad.fromLoad(raw);

        assertThat(ret.retcode()).isEqualTo(2);
        assertThat(ret.success()).isFalse();
    }

    @ParameterizedTest(name = "{0}{1}")
    @CsvSource({
        "frames/run1-auto-accept/, 006, minion_start",
        "frames/run1-auto-accept/, 008, salt/minion/vector-minion/start",
        "frames/run2-pending-then-accepted-zmq-filtering/, 013, minion_start",
        "frames/run2-pending-then-accepted-zmq-filtering/, 015, salt/minion/vector-minion/start",
    })
    void readsEveryCapturedMinionEvent(String run, String number, String tag) {
        Map<String, Object> raw = requestLoad(run, number, 0);

        MinionEvent event = MinionEvent.fromLoad(raw);

        assertThat(event.id()).isEqualTo("vector-minion");
        assertThat(event.tag()).isEqualTo(tag);
        assertThat(Vectors.toVectorJson(event.data())).isEqualTo(Vectors.toVectorJson(raw.get("data")));
        assertThat(event.tok()).isEqualTo(Wire.bytes(raw, "tok"));
    }

    @Test
    void verifiesTheTokOfTheStartEventAsX931OfSaltWithTheMinionKey() {
        MinionEvent event = MinionEvent.fromLoad(requestLoad(RUN1, "006", 0));

        assertThat(Rsa.x931PublicDecrypt(Vectors.minionPub(), event.tok())).isEqualTo("salt".getBytes(StandardCharsets.US_ASCII));
        // deterministic padding: signing "salt" again gives the very same tok
        assertThat(Rsa.x931PrivateEncrypt(Vectors.minionPem(), "salt".getBytes(StandardCharsets.US_ASCII))).isEqualTo(event.tok());
        assertThat(event.data()).isEqualTo("Minion vector-minion started at Sun Nov 22 06:45:05 2026");
    }

    @Test
    void packsAMinionEventInSaltsFieldOrder() {
        Map<String, Object> described = Vectors.described(RUN1, "006");
        Map<String, Object> raw = requestLoad(RUN1, "006", 0);
        Map<String, Object> load = MinionEvent.fromLoad(raw).toLoad();
        load.put("_stamp", raw.get("_stamp"));
        load.put("nonce", raw.get("nonce"));

        assertThat(SaltPack.pack(load)).isEqualTo(Vectors.hex((String) Vectors.path(described, "load_crypticle", "msgpack_hex")));
    }

    @Test
    void refusesAMinionEventWithoutTok() {
        Map<String, Object> raw = new LinkedHashMap<>(requestLoad(RUN1, "006", 0));
        raw.remove("tok");

        assertThatThrownBy(() -> MinionEvent.fromLoad(raw)).isInstanceOf(WireException.class).hasMessageContaining("tok");
    }

    @Test
    void carriesAMinionEventThroughTheSessionCipher() {
        SessionCipher cipher = new SessionCipher(new Crypticle(Crypticle.generateKeyString()));
        byte[] tok = Rsa.x931PrivateEncrypt(Vectors.minionPem(), "salt".getBytes(StandardCharsets.US_ASCII));
        MinionEvent sent = new MinionEvent("web1", tok, "custom/tag", Map.of("k", "v"));

        byte[] frame = cipher.encryptRequest(sent.toLoad(), SessionCipher.newNonce());
        MinionEvent got = MinionEvent.fromLoad(cipher.decryptRequest(RequestEnvelope.decode(frame).aesLoad()));

        assertThat(got.id()).isEqualTo("web1");
        assertThat(got.tag()).isEqualTo("custom/tag");
        assertThat(got.data()).isEqualTo(Map.of("k", "v"));
        assertThat(got.tok()).isEqualTo(tok);
    }
}
