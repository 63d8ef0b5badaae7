package io.jsalt.transport.message;

import static io.jsalt.transport.message.Vectors.RUN1;
import static io.jsalt.transport.message.Vectors.RUN2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.CrypticleAuthException;
import io.jsalt.crypto.Rsa;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The publish-port frames salt-master 3006.8 sent (signed, encrypted under the session key). */
class PublicationVectorsTest {

    private final Crypticle firstKey = Vectors.sessionCrypticle(RUN1, 0);
    private final Crypticle secondKey = Vectors.sessionCrypticle(RUN1, 1);

    @ParameterizedTest
    @ValueSource(strings = {"010", "013", "016", "019"})
    void decodesEveryPublicationOfTheFirstSessionToTheRecordedLoad(String number) {
        Map<String, Object> recorded = Vectors.map(Vectors.described(RUN1, number), "load_crypticle", "decoded");

        Map<String, Object> load = Publication.decode(Vectors.frame(RUN1, number), firstKey, Vectors.masterPub(), true);

        assertThat(Vectors.toVectorJson(load)).isEqualTo(recorded);
    }

    @Test
    void decodesTestArgWithItsKwargMapAndSerial() {
        Map<String, Object> load = Publication.decode(Vectors.frame(RUN1, "019"), firstKey, Vectors.masterPub(), true);

        assertThat(load).containsEntry("fun", "test.arg").containsEntry("serial", 4L).containsEntry("tgt", "*");
        List<Object> arg = Wire.list(load, "arg");
        assertThat(arg).hasSize(2);
        assertThat(arg.get(0)).isEqualTo(1L);
        assertThat(Wire.asMap(arg.get(1))).containsExactly(Map.entry("__kwarg__", true), Map.entry("two", 2L));
    }

    @Test
    void failsTheHmacOfThePublicationAfterKeyRotationUnderTheFirstKey() {
        byte[] frame = Vectors.frame(RUN1, "029");

        assertThatThrownBy(() -> Publication.decode(frame, firstKey, Vectors.masterPub(), true))
                .isInstanceOf(CrypticleAuthException.class);
    }

    @Test
    void decodesThePublicationAfterKeyRotationUnderTheSecondKey() {
        Map<String, Object> recorded = Vectors.map(Vectors.described(RUN1, "029"), "load_crypticle", "decoded");

        Map<String, Object> load = Publication.decode(Vectors.frame(RUN1, "029"), secondKey, Vectors.masterPub(), true);

        assertThat(Vectors.toVectorJson(load)).isEqualTo(recorded);
        assertThat(load).containsEntry("serial", 1L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"017", "020", "023"})
    void decodesThePayloadFrameOfEveryFilteredPublication(String number) {
        String payload = Vectors.list(RUN2, "-frame1-payload.bin").stream()
                .filter(p -> p.substring(p.lastIndexOf('/') + 1).startsWith(number + "-"))
                .findFirst()
                .orElseThrow();

        Map<String, Object> load = Publication.decode(Vectors.bytes(payload), Vectors.sessionCrypticle(RUN2, 0), Vectors.masterPub(), true);

        assertThat(Vectors.toVectorJson(load)).isEqualTo(Vectors.path(Vectors.describing(payload), "load_crypticle", "decoded"));
    }

    @Test
    void refusesAPublicationSignedWithAnotherKey() {
        Map<String, Object> frame = Wire.asMap(SaltPack.unpack(Vectors.frame(RUN1, "010")));
        frame.put("sig", Rsa.sign(Vectors.minionPem(), Wire.bytes(frame, "load")));

        byte[] forged = SaltPack.pack(frame);

        assertThatThrownBy(() -> Publication.decode(forged, firstKey, Vectors.masterPub(), true))
                .isInstanceOf(WireException.class)
                .hasMessageContaining("signature");
        assertThatThrownBy(() -> Publication.decode(forged, firstKey, Vectors.masterPub(), false))
                .as("a present but bad signature is refused even when signatures are optional")
                .isInstanceOf(WireException.class);
    }

    @Test
    void refusesAnUnsignedPublicationWhenASignatureIsRequired() {
        Map<String, Object> frame = Wire.asMap(SaltPack.unpack(Vectors.frame(RUN1, "010")));
        frame.remove("sig");

        byte[] unsigned = SaltPack.pack(frame);

        assertThatThrownBy(() -> Publication.decode(unsigned, firstKey, Vectors.masterPub(), true))
                .isInstanceOf(WireException.class)
                .hasMessageContaining("unsigned");
        assertThat(Publication.decode(unsigned, firstKey, Vectors.masterPub(), false)).containsEntry("fun", "test.ping");
    }

    @Test
    void refusesAPublicationWhoseEncryptedLoadWasSwappedUnderItsSignature() {
        Map<String, Object> frame = Wire.asMap(SaltPack.unpack(Vectors.frame(RUN1, "010")));
        Map<String, Object> other = Wire.asMap(SaltPack.unpack(Vectors.frame(RUN1, "016")));
        frame.put("load", other.get("load"));

        byte[] spliced = SaltPack.pack(frame);

        assertThatThrownBy(() -> Publication.decode(spliced, firstKey, Vectors.masterPub(), true)).isInstanceOf(WireException.class);
    }

    @Test
    void refusesAPublicationThatIsNotAesEncrypted() {
        Map<String, Object> frame = new LinkedHashMap<>();
        frame.put("enc", "clear");
        frame.put("load", Map.of("fun", "cmd.run"));

        assertThatThrownBy(() -> Publication.decode(SaltPack.pack(frame), firstKey, Vectors.masterPub(), false))
                .isInstanceOf(WireException.class);
    }

    @Test
    void encodesAPublicationThatDecodesAndIsShapedLikeSalts() {
        Crypticle key = new Crypticle(Crypticle.generateKeyString());
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("fun", "test.ping");
        load.put("arg", List.of());
        load.put("serial", 7);

        byte[] frame = Publication.encode(key, Vectors.masterPem(), load);

        assertThat(Wire.asMap(SaltPack.unpack(frame)).keySet())
                .containsExactlyElementsOf(Wire.asMap(SaltPack.unpack(Vectors.frame(RUN1, "010"))).keySet());
        Map<String, Object> back = Publication.decode(frame, key, Vectors.masterPub(), true);
        assertThat(back).containsExactly(Map.entry("fun", "test.ping"), Map.entry("arg", List.of()), Map.entry("serial", 7L));
    }

    @Test
    void encodesAnUnsignedPublicationWithoutAKey() {
        Crypticle key = new Crypticle(Crypticle.generateKeyString());

        byte[] frame = Publication.encode(key, null, Map.of("fun", "test.ping"));

        assertThat(Wire.asMap(SaltPack.unpack(frame))).doesNotContainKey("sig");
        assertThatThrownBy(() -> Publication.decode(frame, key, Vectors.masterPub(), true)).isInstanceOf(WireException.class);
        assertThat(Publication.decode(frame, key, null, false)).containsEntry("fun", "test.ping");
    }
}
