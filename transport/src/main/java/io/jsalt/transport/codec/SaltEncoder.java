package io.jsalt.transport.codec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.Collection;
import java.util.Map;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePacker;

/**
 * Packs Java values the way Python's msgpack packs Salt's objects. Each thread keeps one encoder per packing
 * (their packer, output array and UTF-8 encoder are not thread-safe) and reuses it from one message to the next;
 * a call made while the thread's encoder is busy (none does today) or after one failed gets a fresh one.
 */
final class SaltEncoder {

    private static final BigInteger UINT64_LIMIT = BigInteger.ONE.shiftLeft(64);
    private static final ThreadLocal<SaltEncoder> NETWORK = ThreadLocal.withInitial(() -> new SaltEncoder(false));
    private static final ThreadLocal<SaltEncoder> BIN_TYPE = ThreadLocal.withInitial(() -> new SaltEncoder(true));

    private final boolean useBinType;
    private final ReusableOutput output = new ReusableOutput();
    private final MessagePacker packer;
    private boolean busy;
    private final CharsetEncoder utf8 = StandardCharsets.UTF_8.newEncoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);

    /**
     * @param useBinType Python msgpack's flag of the same name: false is Salt's network packing (str and
     *                   bytes both in the raw family, never str8), true is the event bus (str8 and bin allowed)
     */
    private SaltEncoder(boolean useBinType) {
        this.useBinType = useBinType;
        // with use_bin_type=False Python msgpack emits the pre-2013 raw family, which has no str8 (0xd9)
        this.packer = new MessagePack.PackerConfig().withStr8FormatSupport(useBinType).newPacker(output);
    }

    static byte[] encode(Object value, boolean useBinType) {
        ThreadLocal<SaltEncoder> kept = useBinType ? BIN_TYPE : NETWORK;
        SaltEncoder encoder = kept.get();
        if (encoder.busy) {
            encoder = new SaltEncoder(useBinType);
        }
        encoder.busy = true;
        boolean packed = false;
        try {
            encoder.write(value, 0);
            encoder.packer.flush();
            byte[] bytes = encoder.output.toByteArray();
            packed = true;
            return bytes;
        } catch (IOException e) {
            // the packer writes to memory only
            throw new UncheckedIOException(e);
        } finally {
            encoder.busy = false;
            if (packed) {
                encoder.output.reset();
            } else {
                kept.remove(); // the packer may hold half a message: the next call starts on a new encoder
            }
        }
    }

    private void write(Object value, int depth) throws IOException {
        if (value == null) {
            packer.packNil();
        } else if (value instanceof String text) {
            writeText(text);
        } else if (value instanceof byte[] bytes) {
            writeBytes(bytes);
        } else if (value instanceof Boolean flag) {
            packer.packBoolean(flag);
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            packer.packLong(((Number) value).longValue());
        } else if (value instanceof BigInteger big) {
            writeBigInteger(big);
        } else if (value instanceof Double || value instanceof Float) {
            // Python floats are doubles, and Python msgpack packs every float as float64
            packer.packDouble(((Number) value).doubleValue());
        } else if (value instanceof LocalDateTime dateTime) {
            writeExt(SaltDateTime.EXT_TYPE, SaltDateTime.encode(dateTime));
        } else if (value instanceof ExtValue ext) {
            writeExt(ext.type(), ext.data());
        } else if (value instanceof Map<?, ?> map) {
            writeMap(map, depth + 1);
        } else if (value instanceof Collection<?> collection) {
            writeArray(collection.toArray(), depth + 1);
        } else if (value instanceof Object[] array) {
            writeArray(array, depth + 1);
        } else {
            throw new IllegalArgumentException("cannot pack a " + value.getClass().getName() + " for Salt");
        }
    }

    private void writeText(String text) throws IOException {
        // the JDK's own encoding is the fast one, but writes '?' for a lone surrogate: where it wrote a '?', the
        // strict encoder tells a real one from a lone surrogate
        byte[] encoded = text.getBytes(StandardCharsets.UTF_8);
        if (indexOfQuestionMark(encoded) >= 0) {
            encoded = strictUtf8(text);
        }
        packer.packRawStringHeader(encoded.length);
        packer.writePayload(encoded);
    }

    private static int indexOfQuestionMark(byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '?') {
                return i;
            }
        }
        return -1;
    }

    private byte[] strictUtf8(String text) {
        byte[] encoded;
        try {
            ByteBuffer buffer = utf8.encode(CharBuffer.wrap(text));
            encoded = new byte[buffer.remaining()];
            buffer.get(encoded);
        } catch (CharacterCodingException e) {
            // Python refuses to encode a lone surrogate too; silently sending '?' would corrupt the value
            throw new IllegalArgumentException("string is not valid Unicode (lone surrogate)", e);
        }
        return encoded;
    }

    private void writeBytes(byte[] bytes) throws IOException {
        if (useBinType) {
            packer.packBinaryHeader(bytes.length);
        } else {
            // Salt's network packing sends byte strings as raw/str, the receiver sorts text from bytes
            packer.packRawStringHeader(bytes.length);
        }
        packer.writePayload(bytes);
    }

    private void writeBigInteger(BigInteger value) throws IOException {
        if (value.bitLength() < Long.SIZE) {
            packer.packLong(value.longValue());
        } else if (value.signum() > 0 && value.compareTo(UINT64_LIMIT) < 0) {
            packer.packBigInteger(value);
        } else {
            // Salt's ext_type_encoder turns integers msgpack cannot hold into their decimal string
            writeText(value.toString());
        }
    }

    private void writeExt(int type, byte[] data) throws IOException {
        packer.packExtensionTypeHeader((byte) type, data.length);
        packer.writePayload(data);
    }

    private void writeMap(Map<?, ?> map, int depth) throws IOException {
        checkDepth(depth);
        // a snapshot, so that the header count and the entries written always agree
        Object[] entries = map.entrySet().toArray();
        packer.packMapHeader(entries.length);
        for (Object entry : entries) {
            Map.Entry<?, ?> pair = (Map.Entry<?, ?>) entry;
            write(pair.getKey(), depth);
            write(pair.getValue(), depth);
        }
    }

    private void writeArray(Object[] items, int depth) throws IOException {
        checkDepth(depth);
        packer.packArrayHeader(items.length);
        for (Object item : items) {
            write(item, depth);
        }
    }

    private static void checkDepth(int depth) {
        // what we pack must be something our own decoder accepts; this also stops on cycles
        if (depth > SaltPack.MAX_DEPTH) {
            throw new IllegalArgumentException("value nests deeper than " + SaltPack.MAX_DEPTH
                    + " containers (or contains itself)");
        }
    }
}
