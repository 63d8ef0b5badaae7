package io.jsalt.crypto;

import java.util.Arrays;

/**
 * ANSI X9.31 padding exactly as OpenSSL's {@code RSA_padding_add_X931} lays it out (Salt's "private_encrypt"):
 * {@code 6B BB..BB BA ‖ msg ‖ CC}, or {@code 6A ‖ msg ‖ CC} when one byte of padding is all there is room for.
 * The message is not hashed: BouncyCastle's X931Signer hashes first and so does not match Salt.
 */
final class X931Padding {
    private static final int HEADER = 0x6B;
    private static final int HEADER_NO_FILL = 0x6A;
    private static final int FILL = 0xBB;
    private static final int FILL_END = 0xBA;
    private static final int TRAILER = 0xCC;

    private X931Padding() {
    }

    /** Pads {@code msg} to exactly {@code length} bytes. */
    static byte[] pad(byte[] msg, int length) {
        int padLength = length - msg.length - 1; // everything but the message and the trailer
        if (padLength < 1) {
            throw new CryptoException("message of " + msg.length + " bytes too long for X9.31 padding to " + length);
        }
        byte[] block = new byte[length];
        if (padLength == 1) {
            block[0] = (byte) HEADER_NO_FILL;
        } else {
            block[0] = (byte) HEADER;
            Arrays.fill(block, 1, padLength - 1, (byte) FILL);
            block[padLength - 1] = (byte) FILL_END;
        }
        System.arraycopy(msg, 0, block, padLength, msg.length);
        block[length - 1] = (byte) TRAILER;
        return block;
    }

    /** Checks and strips the padding of a whole block, the inverse of {@link #pad}. */
    static byte[] unpad(byte[] block) {
        if (block.length < 2 || (block[block.length - 1] & 0xFF) != TRAILER) {
            throw new CryptoException("bad X9.31 trailer");
        }
        int header = block[0] & 0xFF;
        int start;
        if (header == HEADER_NO_FILL) {
            start = 1;
        } else if (header == HEADER) {
            int i = 1;
            while (i < block.length - 1 && (block[i] & 0xFF) == FILL) {
                i++;
            }
            if (i >= block.length - 1 || (block[i] & 0xFF) != FILL_END) {
                throw new CryptoException("bad X9.31 padding");
            }
            start = i + 1;
        } else {
            throw new CryptoException("bad X9.31 header");
        }
        return Arrays.copyOfRange(block, start, block.length - 1);
    }
}
