package io.jsalt.transport.codec;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.msgpack.core.ExtensionTypeHeader;
import org.msgpack.core.MessageFormat;
import org.msgpack.core.MessageInsufficientBufferException;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePackException;
import org.msgpack.core.MessageUnpacker;

/**
 * Reads msgpack as Salt's {@code salt.payload.loads} does, and distrusts every length it is given.
 * One instance per message: the unpacker and the UTF-8 decoder are not thread-safe.
 */
final class SaltDecoder {

    /** Containers are pre-sized at most this much; they grow with what actually arrives. */
    private static final int MAX_PRESIZE = 1024;

    private final byte[] data;
    private final MessageUnpacker unpacker;
    /** Made on the first raw value that is not ASCII: most messages hold none. */
    private CharsetDecoder utf8;

    private SaltDecoder(byte[] data) {
        this.data = data;
        this.unpacker = MessagePack.newDefaultUnpacker(data);
    }

    static Object decodeOne(byte[] data) {
        SaltDecoder decoder = new SaltDecoder(data);
        return decoder.guard(() -> {
            Object value = decoder.read(0);
            if (decoder.remaining() > 0) {
                throw new WireException(decoder.remaining() + " trailing bytes after a msgpack value of "
                        + decoder.unpacker.getTotalReadBytes() + " bytes");
            }
            return value;
        });
    }

    static List<Object> decodeAll(byte[] data) {
        SaltDecoder decoder = new SaltDecoder(data);
        return decoder.guard(() -> {
            List<Object> values = new ArrayList<>();
            while (decoder.remaining() > 0) {
                values.add(decoder.read(0));
            }
            return values;
        });
    }

    private interface Step<T> {
        T run() throws IOException;
    }

    /** Turns every failure of msgpack-java into the one exception callers handle. */
    private <T> T guard(Step<T> step) {
        try {
            return step.run();
        } catch (MessageInsufficientBufferException e) {
            throw new WireException("truncated msgpack: the message ends inside a value", e);
        } catch (MessagePackException | IOException e) {
            throw new WireException("malformed msgpack at byte " + unpacker.getTotalReadBytes() + ": "
                    + e.getMessage(), e);
        }
    }

    private Object read(int depth) throws IOException {
        MessageFormat format = unpacker.getNextFormat();
        if (format == MessageFormat.NEVER_USED) {
            throw new WireException("byte 0xc1 (never used in msgpack) at byte " + unpacker.getTotalReadBytes());
        }
        switch (format.getValueType()) {
            case NIL:
                unpacker.unpackNil();
                return null;
            case BOOLEAN:
                return unpacker.unpackBoolean();
            case INTEGER:
                return readInteger(format);
            case FLOAT:
                return unpacker.unpackDouble();
            case STRING:
                return textOrBytes(payload(unpacker.unpackRawStringHeader()));
            case BINARY:
                return payload(unpacker.unpackBinaryHeader());
            case ARRAY:
                return readArray(depth + 1);
            case MAP:
                return readMap(depth + 1);
            case EXTENSION:
                return readExt();
            default:
                throw new WireException("unknown msgpack format " + format);
        }
    }

    private Object readInteger(MessageFormat format) throws IOException {
        if (format == MessageFormat.UINT64) {
            BigInteger value = unpacker.unpackBigInteger();
            return value.bitLength() < Long.SIZE ? (Object) value.longValue() : value;
        }
        return unpacker.unpackLong();
    }

    private List<Object> readArray(int depth) throws IOException {
        checkDepth(depth);
        int size = unpacker.unpackArrayHeader();
        // every element takes at least one byte
        requireAvailable(size, 1, "array of", "items");
        List<Object> items = new ArrayList<>(Math.min(size, MAX_PRESIZE));
        for (int i = 0; i < size; i++) {
            items.add(read(depth));
        }
        return items;
    }

    private Map<Object, Object> readMap(int depth) throws IOException {
        checkDepth(depth);
        int size = unpacker.unpackMapHeader();
        // every entry takes at least two bytes, key and value
        requireAvailable(size, 2, "map of", "entries");
        Map<Object, Object> map = new LinkedHashMap<>(Math.min(size, MAX_PRESIZE) * 2);
        for (int i = 0; i < size; i++) {
            Object key = read(depth);
            map.put(key, read(depth));
        }
        return map;
    }

    private Object readExt() throws IOException {
        ExtensionTypeHeader header = unpacker.unpackExtensionTypeHeader();
        byte[] body = payload(header.getLength());
        if (header.getType() == SaltDateTime.EXT_TYPE) {
            return SaltDateTime.decode(body);
        }
        return new ExtValue(header.getType(), body);
    }

    private byte[] payload(int length) throws IOException {
        requireAvailable(length, 1, "string or extension of", "bytes");
        return unpacker.readPayload(length);
    }

    /** Salt's decode_embedded_strs: a raw value that is valid UTF-8 is text, anything else stays bytes. */
    private Object textOrBytes(byte[] raw) {
        if (isAscii(raw)) {
            // ASCII is valid UTF-8 and reads the same in Latin-1, whose decoding is a plain copy
            return new String(raw, StandardCharsets.ISO_8859_1);
        }
        if (utf8 == null) {
            utf8 = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
        }
        // the decoder's own steps, reading its result instead of catching the exception it would throw: bytes
        // that are not UTF-8 (Salt's encrypted loads, packed as strings) come in every publication and return
        utf8.reset();
        CharBuffer text = CharBuffer.allocate(raw.length); // UTF-8 never gives more chars than it has bytes
        if (utf8.decode(ByteBuffer.wrap(raw), text, true).isError() || utf8.flush(text).isError()) {
            return raw;
        }
        return text.flip().toString();
    }

    private static boolean isAscii(byte[] raw) {
        for (byte b : raw) {
            if (b < 0) {
                return false;
            }
        }
        return true;
    }

    private void requireAvailable(int count, int minBytesEach, String what, String unit) {
        // checked before anything is allocated, so a hostile length header costs nothing
        if (count < 0 || (long) count * minBytesEach > remaining()) {
            throw new WireException(what + " " + Integer.toUnsignedString(count) + " " + unit
                    + " cannot fit in the " + remaining() + " bytes that remain");
        }
    }

    private static void checkDepth(int depth) {
        if (depth > SaltPack.MAX_DEPTH) {
            throw new WireException("msgpack nests deeper than " + SaltPack.MAX_DEPTH + " containers");
        }
    }

    private long remaining() {
        return data.length - unpacker.getTotalReadBytes();
    }
}
