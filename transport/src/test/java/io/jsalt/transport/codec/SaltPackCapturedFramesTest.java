package io.jsalt.transport.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every msgpack frame captured between salt-minion 3006.8 and salt-master 3006.8, both runs. */
class SaltPackCapturedFramesTest {

    /** Frame roles whose bytes are ZeroMQ subscription commands or publish topics, not msgpack. */
    private static final Set<String> NOT_MSGPACK = Set.of("subscription message", "topic");

    static List<String> allFrames() {
        return SaltVectors.list("frames", ".bin");
    }

    static List<String> msgpackFrames() {
        return allFrames().stream().filter(bin -> isMsgpack(SaltVectors.describing(bin))).toList();
    }

    private static boolean isMsgpack(Map<String, Object> description) {
        return !NOT_MSGPACK.contains(Wire.string(description, "frame_role"));
    }

    @Test
    void knowsWhichCapturedFramesAreMsgpack() {
        for (String bin : allFrames()) {
            Map<String, Object> description = SaltVectors.describing(bin);
            String role = Wire.string(description, "frame_role");
            assertThat(role).as(bin).isIn("payload", "subscription message", "topic");
            assertThat(description.containsKey("msgpack_decoded")).as(bin).isEqualTo(isMsgpack(description));
        }
        // run1: 31 payloads and 3 subscription frames; run2: 23 payloads, 4 subscription frames, 3 topics
        assertThat(allFrames()).hasSize(64);
        assertThat(msgpackFrames()).hasSize(54);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("msgpackFrames")
    void repacksEveryCapturedFrameByteForByte(String bin) {
        byte[] captured = SaltVectors.bytes(bin);

        assertThat(SaltPack.pack(SaltPack.unpack(captured))).isEqualTo(captured);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("msgpackFrames")
    void decodesEveryCapturedFrameAsSaltDid(String bin) {
        Object decoded = SaltPack.unpack(SaltVectors.bytes(bin));

        assertThat(SaltVectors.toVectorJson(decoded)).isEqualTo(SaltVectors.describing(bin).get("msgpack_decoded"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("msgpackFrames")
    void readsTheEnvelopeFieldsOfEveryRequestAndPublication(String bin) {
        Object decoded = SaltPack.unpack(SaltVectors.bytes(bin));
        if (bin.contains("-reply") && !bin.contains("auth-reply") && !bin.contains("pillar-reply")) {
            // the reply to an aes request is one Crypticle byte string, nothing else
            assertThat(Wire.asBytes(decoded).length).isGreaterThan(16 + 32);
            return;
        }
        Map<String, Object> frame = Wire.asMap(decoded);
        if (bin.contains("minion-to-master")) {
            assertThat(Wire.longValue(frame, "version")).isEqualTo(2L);
            assertThat(Wire.string(frame, "enc")).isIn("clear", "aes");
        }
        if (bin.contains("auth-request")) {
            Map<String, Object> load = Wire.map(frame, "load");
            assertThat(Wire.string(frame, "enc")).isEqualTo("clear");
            assertThat(Wire.string(load, "cmd")).isEqualTo("_auth");
            assertThat(Wire.string(load, "id")).isEqualTo("vector-minion");
            assertThat(Wire.string(load, "nonce")).hasSize(32);
        }
        if (bin.contains("publish")) {
            assertThat(Wire.string(frame, "enc")).isEqualTo("aes");
            assertThat(Wire.bytes(frame, "sig")).hasSize(256);
            assertThat(Wire.bytes(frame, "load").length % 16).isEqualTo((16 + 32) % 16);
        }
        if (bin.contains("auth-reply")) {
            assertThat(Wire.string(frame, "enc")).isEqualTo("clear");
            Map<String, Object> reply = Wire.asMap(SaltPack.unpack(Wire.bytes(frame, "load")));
            assertThat(Wire.string(reply, "nonce")).hasSize(32);
        }
    }
}
