package io.jsalt.transport.event;

import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/** One event on the master's bus: {@code tag ‖ "\n\n" ‖ msgpack(data)}, packed with use_bin_type=True. */
public record EventFrame(String tag, Map<String, Object> data) {
    private static final byte[] SEPARATOR = "\n\n".getBytes(StandardCharsets.US_ASCII);

    public byte[] encode() {
        byte[] t = tag.getBytes(StandardCharsets.UTF_8);
        byte[] d = SaltPack.packBinType(data);
        byte[] out = Arrays.copyOf(t, t.length + SEPARATOR.length + d.length);
        System.arraycopy(SEPARATOR, 0, out, t.length, SEPARATOR.length);
        System.arraycopy(d, 0, out, t.length + SEPARATOR.length, d.length);
        return out;
    }

    public static EventFrame decode(byte[] bytes) {
        for (int i = 0; i + 1 < bytes.length; i++) {
            if (bytes[i] == '\n' && bytes[i + 1] == '\n') {
                String tag = new String(bytes, 0, i, StandardCharsets.UTF_8);
                byte[] rest = Arrays.copyOfRange(bytes, i + 2, bytes.length);
                return new EventFrame(tag, Wire.asMap(SaltPack.unpack(rest)));
            }
        }
        throw new WireException("event without a tag separator");
    }
}
