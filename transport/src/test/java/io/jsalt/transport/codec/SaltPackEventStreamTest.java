package io.jsalt.transport.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The master's local event stream as Salt 3006.8 wrote it: {head, body: bin} maps packed with use_bin_type=True. */
class SaltPackEventStreamTest {

    private static final byte[] TAG_SEPARATOR = "\n\n".getBytes(StandardCharsets.US_ASCII);

    static List<String> events() {
        return SaltVectors.list("events", ".bin");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("events")
    void readsEachEventAsAHeadAndABinaryBody(String bin) {
        Map<String, Object> description = SaltVectors.describing(bin);

        List<Object> messages = SaltPack.unpackAll(SaltVectors.bytes(bin));

        assertThat(messages).hasSize(1);
        Map<String, Object> event = Wire.asMap(messages.get(0));
        assertThat(event.keySet()).containsExactly("head", "body");
        assertThat(Wire.map(event, "head")).isEqualTo(description.get("head"));
        assertThat(event.get("body")).isInstanceOf(byte[].class)
                .isEqualTo(Base64.getDecoder().decode(Wire.string(description, "body_b64")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("events")
    void findsTheTagAndTheDataInTheBody(String bin) {
        Map<String, Object> description = SaltVectors.describing(bin);
        byte[] body = Wire.bytes(Wire.asMap(SaltPack.unpack(SaltVectors.bytes(bin))), "body");
        byte[] tag = Wire.string(description, "tag").getBytes(StandardCharsets.UTF_8);

        int dataStart = tag.length + TAG_SEPARATOR.length;
        assertThat(Arrays.copyOfRange(body, 0, tag.length)).isEqualTo(tag);
        assertThat(Arrays.copyOfRange(body, tag.length, dataStart)).isEqualTo(TAG_SEPARATOR);
        byte[] data = Arrays.copyOfRange(body, dataStart, body.length);
        assertThat(HexFormat.of().formatHex(data)).isEqualTo(description.get("data_msgpack_hex"));
        assertThat(SaltVectors.toVectorJson(SaltPack.unpack(data))).isEqualTo(description.get("data_decoded"));
        assertThat(SaltPack.packBinType(SaltPack.unpack(data))).isEqualTo(data);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("events")
    void repacksEachEventByteForByteWithBinType(String bin) {
        byte[] captured = SaltVectors.bytes(bin);

        assertThat(SaltPack.packBinType(SaltPack.unpack(captured))).isEqualTo(captured);
    }

    @ParameterizedTest
    @ValueSource(strings = {"events/run1-auto-accept", "events/run2-pending-then-accepted-zmq-filtering"})
    void splitsAWholeRunsConcatenatedStreamIntoItsEvents(String run) {
        List<String> files = SaltVectors.list(run, ".bin");
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        for (String file : files) {
            stream.writeBytes(SaltVectors.bytes(file));
        }

        List<Object> events = SaltPack.unpackAll(stream.toByteArray());

        assertThat(files).hasSizeGreaterThan(10);
        assertThat(events).hasSize(files.size());
        for (int i = 0; i < files.size(); i++) {
            assertThat(SaltPack.packBinType(events.get(i))).as(files.get(i)).isEqualTo(SaltVectors.bytes(files.get(i)));
        }
    }
}
