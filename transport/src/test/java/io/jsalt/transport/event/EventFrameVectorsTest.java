package io.jsalt.transport.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.message.Vectors;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The master's event bus messages, read from salt-master 3006.8's local publisher in both runs. */
class EventFrameVectorsTest {

    static List<String> events() {
        return Vectors.list("events", ".bin");
    }

    /** Each captured message is msgpack {head, body} (use_bin_type=True); body is what EventFrame handles. */
    private static byte[] body(String bin) {
        Map<String, Object> message = Wire.asMap(SaltPack.unpack(Vectors.bytes(bin)));
        assertThat(message.keySet()).containsExactly("head", "body");
        return Wire.bytes(message, "body");
    }

    @Test
    void findsEveryCapturedEvent() {
        assertThat(events()).hasSize(25 + 17);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("events")
    void decodesEveryCapturedEventToItsTagAndData(String bin) {
        Map<String, Object> described = Vectors.describing(bin);
        byte[] body = body(bin);

        EventFrame event = EventFrame.decode(body);

        assertThat(body).isEqualTo(Base64.getDecoder().decode((String) described.get("body_b64")));
        assertThat(event.tag()).isEqualTo(described.get("tag"));
        assertThat(Vectors.toVectorJson(event.data())).isEqualTo(described.get("data_decoded"));
        assertThat(event.data()).containsKey("_stamp");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("events")
    void reencodesEveryCapturedEventByteForByte(String bin) {
        byte[] body = body(bin);
        EventFrame event = EventFrame.decode(body);

        assertThat(new EventFrame(event.tag(), event.data()).encode()).isEqualTo(body);
    }

    @Test
    void roundTripsAnEventWithTextBytesNumbersAndNesting() {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("id", "web1");
        data.put("blob", new byte[] {0, (byte) 0xff, 10, 10});
        data.put("n", 1L << 40);
        data.put("nested", Map.of("list", List.of("a", true)));
        data.put("_stamp", "2026-11-22T06:45:05.913001");
        EventFrame frame = new EventFrame("salt/job/20261122064514029059/ret/web1", data);

        byte[] bytes = frame.encode();
        EventFrame back = EventFrame.decode(bytes);

        assertThat(new String(bytes, 0, frame.tag().length() + 2, StandardCharsets.UTF_8)).isEqualTo(frame.tag() + "\n\n");
        assertThat(back.tag()).isEqualTo(frame.tag());
        assertThat(back.data().keySet()).containsExactlyElementsOf(data.keySet());
        assertThat((byte[]) back.data().get("blob")).isEqualTo(new byte[] {0, (byte) 0xff, 10, 10});
        assertThat(back.data()).containsEntry("n", 1L << 40).containsEntry("nested", Map.of("list", List.of("a", true)));
    }

    @Test
    void splitsAtTheFirstSeparatorSoDataMayContainNewlines() {
        EventFrame frame = new EventFrame("custom/tag", Map.of("text", "a\n\nb"));

        EventFrame back = EventFrame.decode(frame.encode());

        assertThat(back.tag()).isEqualTo("custom/tag");
        assertThat(back.data()).containsEntry("text", "a\n\nb");
    }

    @Test
    void refusesAnEventWithoutATagSeparator() {
        assertThatThrownBy(() -> EventFrame.decode("salt/auth".getBytes(StandardCharsets.US_ASCII)))
                .isInstanceOf(WireException.class)
                .hasMessageContaining("separator");
        assertThatThrownBy(() -> EventFrame.decode(new byte[0])).isInstanceOf(WireException.class);
    }

    @Test
    void refusesAnEventWhoseDataIsNotAMap() {
        byte[] tag = "t\n\n".getBytes(StandardCharsets.US_ASCII);
        byte[] list = SaltPack.packBinType(List.of(1));
        byte[] bytes = new byte[tag.length + list.length];
        System.arraycopy(tag, 0, bytes, 0, tag.length);
        System.arraycopy(list, 0, bytes, tag.length, list.length);

        assertThatThrownBy(() -> EventFrame.decode(bytes)).isInstanceOf(WireException.class);
    }
}
