package io.jsalt.transport.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.WireException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every request frame a salt-minion 3006.8 sent to the master's request port, in both runs. */
class RequestEnvelopeVectorsTest {

    static List<String> requestFrames() {
        return Vectors.list("frames", ".bin").stream()
                .filter(bin -> {
                    Map<String, Object> d = Vectors.describing(bin);
                    return "minion-to-master".equals(d.get("direction")) && "payload".equals(d.get("frame_role"));
                })
                .toList();
    }

    static List<String> clearRequestFrames() {
        return requestFrames().stream().filter(bin -> "clear".equals(envelopeJson(bin).get("enc"))).toList();
    }

    private static Map<String, Object> envelopeJson(String bin) {
        return Vectors.map(Vectors.describing(bin), "msgpack_decoded");
    }

    @Test
    void findsEveryRequestFrameOfBothRuns() {
        // run1: 3 _auth, 2 _pillar, 2 _minion_event, 6 _return; run2: 4 _auth, 1 _pillar, 2 _minion_event, 3 _return
        assertThat(requestFrames()).hasSize(13 + 10);
        assertThat(clearRequestFrames()).hasSize(3 + 4);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requestFrames")
    void decodesEveryCapturedRequestAsVersionTwoWithItsEncoding(String bin) {
        Map<String, Object> recorded = envelopeJson(bin);

        RequestEnvelope envelope = RequestEnvelope.decode(Vectors.bytes(bin));

        assertThat(envelope.version()).isEqualTo(2);
        assertThat(envelope.enc()).isEqualTo(recorded.get("enc"));
        if (RequestEnvelope.CLEAR.equals(envelope.enc())) {
            assertThat(Vectors.toVectorJson(envelope.clearLoad())).isEqualTo(recorded.get("load"));
            assertThatThrownBy(envelope::aesLoad).isInstanceOf(WireException.class);
        } else {
            assertThat(envelope.aesLoad()).isEqualTo(Vectors.blob(recorded.get("load")));
            assertThatThrownBy(envelope::clearLoad).isInstanceOf(WireException.class);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clearRequestFrames")
    void reencodesEveryClearRequestByteForByte(String bin) {
        byte[] captured = Vectors.bytes(bin);

        RequestEnvelope decoded = RequestEnvelope.decode(captured);

        assertThat(decoded.encode()).isEqualTo(captured);
        assertThat(RequestEnvelope.clear(decoded.clearLoad()).encode()).isEqualTo(captured);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requestFrames")
    void reencodesEveryAesRequestByteForByteToo(String bin) {
        byte[] captured = Vectors.bytes(bin);
        RequestEnvelope decoded = RequestEnvelope.decode(captured);

        if (RequestEnvelope.AES.equals(decoded.enc())) {
            assertThat(RequestEnvelope.aes(decoded.aesLoad()).encode()).isEqualTo(captured);
        } else {
            assertThat(decoded.encode()).isEqualTo(captured);
        }
    }

    @Test
    void treatsAnEnvelopeWithoutVersionAsVersionOne() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("enc", "clear");
        m.put("load", Map.of("cmd", "ping"));

        assertThat(RequestEnvelope.decode(SaltPack.pack(m)).version()).isEqualTo(1);
    }

    @Test
    void refusesAnUnknownEncoding() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("enc", "pickle");
        m.put("load", Map.of());
        m.put("version", 2);

        assertThatThrownBy(() -> RequestEnvelope.decode(SaltPack.pack(m)))
                .isInstanceOf(WireException.class)
                .hasMessageContaining("pickle");
    }

    @Test
    void refusesAClearEnvelopeWhoseLoadIsNotAMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("enc", "clear");
        m.put("load", "not a map");
        m.put("version", 2);

        assertThatThrownBy(() -> RequestEnvelope.decode(SaltPack.pack(m))).isInstanceOf(WireException.class);
    }

    @Test
    void refusesBytesThatAreNotMsgpack() {
        assertThatThrownBy(() -> RequestEnvelope.decode(new byte[] {(byte) 0xc1, 1, 2}))
                .isInstanceOf(WireException.class);
        assertThatThrownBy(() -> RequestEnvelope.decode(SaltPack.pack(List.of("enc", "aes"))))
                .isInstanceOf(WireException.class);
    }
}
