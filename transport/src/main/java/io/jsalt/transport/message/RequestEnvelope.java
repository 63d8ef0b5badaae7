package io.jsalt.transport.message;

import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The v2 request frame on the request port: {@code {"enc": "clear"|"aes", "load": ..., "version": 2}}.
 * For {@code clear} the load is a map; for {@code aes} it is a Crypticle blob.
 */
public record RequestEnvelope(String enc, Object load, int version) {
    public static final String CLEAR = "clear";
    public static final String AES = "aes";

    public static RequestEnvelope clear(Map<String, Object> load) {
        return new RequestEnvelope(CLEAR, load, 2);
    }

    public static RequestEnvelope aes(byte[] blob) {
        return new RequestEnvelope(AES, blob, 2);
    }

    public byte[] encode() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("enc", enc);
        m.put("load", load);
        m.put("version", version);
        return SaltPack.pack(m);
    }

    public static RequestEnvelope decode(byte[] frame) {
        Map<String, Object> m = Wire.asMap(SaltPack.unpack(frame));
        String enc = Wire.string(m, "enc");
        int version = m.get("version") == null ? 1 : (int) Wire.longValue(m, "version");
        return switch (enc) {
            case CLEAR -> new RequestEnvelope(enc, Wire.map(m, "load"), version);
            case AES -> new RequestEnvelope(enc, Wire.bytes(m, "load"), version);
            default -> throw new WireException("unknown request encoding: " + io.jsalt.transport.codec.Printable.quoted(enc));
        };
    }

    @SuppressWarnings("unchecked")
    public Map<String, Object> clearLoad() {
        if (!CLEAR.equals(enc)) {
            throw new WireException("not a clear request");
        }
        return (Map<String, Object>) load;
    }

    public byte[] aesLoad() {
        if (!AES.equals(enc)) {
            throw new WireException("not an aes request");
        }
        return (byte[]) load;
    }
}
