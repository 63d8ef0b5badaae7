package io.jsalt.transport.codec;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A msgpack extension value that jsalt does not interpret (every type but Salt's datetime, 78).
 * It is kept as received so that packing it again gives the same bytes.
 *
 * @param type the extension type, -128..127 as msgpack defines it
 * @param data the payload; copied in and out, so the record stays immutable
 */
public record ExtValue(int type, byte[] data) {

    public ExtValue {
        if (type < Byte.MIN_VALUE || type > Byte.MAX_VALUE) {
            throw new IllegalArgumentException("msgpack ext type must be within -128..127: " + type);
        }
        data = data.clone();
    }

    @Override
    public byte[] data() {
        return data.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ExtValue that && type == that.type && Arrays.equals(data, that.data);
    }

    @Override
    public int hashCode() {
        return 31 * type + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return "ExtValue[type=" + type + ", data=" + HexFormat.of().formatHex(data) + "]";
    }
}
