package io.jsalt.transport.codec;

import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;

/**
 * Salt's datetime extension: msgpack ext type 78 holding the ASCII text of
 * {@code strftime("%Y%m%dT%H:%M:%S.%f")} (salt/payload.py, ext_type_encoder / ext_type_decoder).
 */
final class SaltDateTime {

    static final int EXT_TYPE = 78;

    /** Four-digit year and six-digit microseconds, as Python prints them for years 1000..9999. */
    private static final int TEXT_LENGTH = 24;

    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("uuuuMMdd'T'HH:mm:ss.SSSSSS").withResolverStyle(ResolverStyle.STRICT);

    private SaltDateTime() {
    }

    /** The ext payload for a datetime; sub-microsecond precision is dropped, as Python has none. */
    static byte[] encode(LocalDateTime value) {
        // Python's datetime stops at year 9999 and starts at year 1: Salt could not read anything else
        if (value.getYear() < 1 || value.getYear() > 9999) {
            throw new IllegalArgumentException("datetime year outside 1..9999 cannot be sent to Salt: " + value);
        }
        return FORMAT.format(value).getBytes(StandardCharsets.US_ASCII);
    }

    static LocalDateTime decode(byte[] payload) {
        if (payload.length != TEXT_LENGTH) {
            throw new WireException("datetime extension (type 78) has " + payload.length
                    + " bytes, expected " + TEXT_LENGTH);
        }
        String text = new String(payload, StandardCharsets.ISO_8859_1);
        try {
            return LocalDateTime.parse(text, FORMAT);
        } catch (DateTimeParseException e) {
            throw new WireException("datetime extension (type 78) is not yyyyMMddTHH:mm:ss.ffffff", e);
        }
    }
}
