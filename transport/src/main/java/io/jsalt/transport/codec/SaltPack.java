package io.jsalt.transport.codec;

import java.util.List;
import java.util.Objects;

/**
 * Salt-compatible msgpack, both ways (salt/payload.py {@code dumps} / {@code loads}).
 *
 * <p>Packing maps Java types to what Python's msgpack would emit for the equivalent Python value:
 * {@code String} and {@code byte[]} (raw family, or str/bin on the event bus), {@code Map} (iteration
 * order kept), {@code List}/{@code Collection}/{@code Object[]}, {@code Boolean}, {@code null}, integers
 * in their smallest encoding, {@code Float}/{@code Double} as float64, {@code LocalDateTime} as Salt's
 * ext 78, and {@link ExtValue}. Any other type is an {@link IllegalArgumentException}: it is a bug in
 * the caller, not a wire problem.
 *
 * <p>Unpacking gives {@code String} (valid UTF-8) or {@code byte[]}, {@code Long} (or {@code BigInteger}
 * above {@code Long.MAX_VALUE}), {@code Double}, {@code Boolean}, {@code null}, {@code LinkedHashMap},
 * {@code ArrayList}, {@code LocalDateTime} and {@link ExtValue}. Any malformed input is a
 * {@link WireException}. Use {@link Wire} to read fields out of the result.
 *
 * <p>Stateless and thread-safe.
 */
public final class SaltPack {

    /** Containers nested deeper than this are refused both ways; Salt's messages nest a handful deep. */
    public static final int MAX_DEPTH = 100;

    private SaltPack() {
    }

    /** Salt's network packing ({@code use_bin_type=False}): what the request and publish channels carry. */
    public static byte[] pack(Object value) {
        return SaltEncoder.encode(value, false);
    }

    /** The event-bus packing ({@code use_bin_type=True}): text as str (str8 allowed), bytes as bin. */
    public static byte[] packBinType(Object value) {
        return SaltEncoder.encode(value, true);
    }

    /** Decodes exactly one msgpack value; bytes left after it are an error. */
    public static Object unpack(byte[] data) {
        return SaltDecoder.decodeOne(Objects.requireNonNull(data, "data"));
    }

    /** Decodes a stream of concatenated msgpack values (the master's event stream); empty input gives none. */
    public static List<Object> unpackAll(byte[] data) {
        return SaltDecoder.decodeAll(Objects.requireNonNull(data, "data"));
    }
}
