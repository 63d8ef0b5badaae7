package io.jsalt.transport.codec;

import java.util.Arrays;
import org.msgpack.core.buffer.MessageBuffer;
import org.msgpack.core.buffer.MessageBufferOutput;

/**
 * A msgpack output into one growing array that a thread keeps from one packing to the next: msgpack's own buffer
 * packer allocates (and zeroes) an 8 KiB buffer for every message, which cost a master more than packing its small
 * replies and return loads. Not thread-safe; {@link SaltEncoder} keeps one per thread.
 */
final class ReusableOutput implements MessageBufferOutput {
    /** What a thread keeps between messages; a larger message's array is let go after it. */
    static final int KEPT_BYTES = 8 * 1024;

    private byte[] array = new byte[KEPT_BYTES];
    /** A view of the whole array, handed out when the packer starts at its beginning (no allocation). */
    private MessageBuffer whole = MessageBuffer.wrap(array);
    private int size;

    @Override
    public MessageBuffer next(int minimumSize) {
        ensure(Math.max(minimumSize, 256));
        return size == 0 ? whole : MessageBuffer.wrap(array, size, array.length - size);
    }

    @Override
    public void writeBuffer(int length) {
        size += length; // the packer wrote into the view next() gave it
    }

    @Override
    public void write(byte[] buffer, int offset, int length) {
        ensure(length);
        System.arraycopy(buffer, offset, array, size, length);
        size += length;
    }

    @Override
    public void add(byte[] buffer, int offset, int length) {
        write(buffer, offset, length); // copied: the caller may reuse its array
    }

    /** The bytes written since the last {@link #reset}. */
    byte[] toByteArray() {
        return Arrays.copyOf(array, size);
    }

    /** Empties it for the next message; an array grown for a large one is let go. */
    void reset() {
        size = 0;
        if (array.length > KEPT_BYTES) {
            array = new byte[KEPT_BYTES];
            whole = MessageBuffer.wrap(array);
        }
    }

    private void ensure(int more) {
        if (array.length - size >= more) {
            return;
        }
        long wanted = Math.max((long) array.length * 2, (long) size + more);
        if (wanted > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("message too large to pack: " + wanted + " bytes");
        }
        array = Arrays.copyOf(array, (int) wanted);
        whole = MessageBuffer.wrap(array);
    }

    @Override
    public void flush() {
        // in memory: nothing to push
    }

    @Override
    public void close() {
        // in memory: nothing to release
    }
}
