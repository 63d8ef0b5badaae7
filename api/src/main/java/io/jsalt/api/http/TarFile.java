package io.jsalt.api.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A tar archive (POSIX ustar) of a few small files, as salt-api's {@code POST /keys} answers with Python's
 * tarfile: each file mode 0600, owned by uid/gid 0, stamped now. Names are plain file names under 100 bytes.
 */
final class TarFile {
    private static final int BLOCK = 512;

    private final Map<String, byte[]> files = new LinkedHashMap<>();

    TarFile add(String name, String content) {
        if (name.getBytes(StandardCharsets.US_ASCII).length >= 100 || name.contains("/")) {
            throw new IllegalArgumentException("a tar entry name must be a plain name under 100 bytes");
        }
        files.put(name, content.getBytes(StandardCharsets.UTF_8));
        return this;
    }

    byte[] bytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long now = System.currentTimeMillis() / 1000;
        files.forEach((name, data) -> {
            byte[] header = new byte[BLOCK];
            put(header, 0, name, 100);
            put(header, 100, "0000600", 8);
            put(header, 108, "0000000", 8);
            put(header, 116, "0000000", 8);
            put(header, 124, String.format("%011o", data.length), 12);
            put(header, 136, String.format("%011o", now), 12);
            java.util.Arrays.fill(header, 148, 156, (byte) ' '); // the checksum counts its own field as spaces
            header[156] = '0';
            put(header, 257, "ustar", 6);
            put(header, 263, "00", 2);
            put(header, 265, "root", 32);
            put(header, 297, "root", 32);
            int sum = 0;
            for (byte b : header) {
                sum += b & 0xff;
            }
            put(header, 148, String.format("%06o", sum), 7);
            header[155] = ' ';
            out.writeBytes(header);
            out.writeBytes(data);
            out.writeBytes(new byte[(BLOCK - data.length % BLOCK) % BLOCK]);
        });
        out.writeBytes(new byte[2 * BLOCK]);
        return out.toByteArray();
    }

    private static void put(byte[] header, int offset, String value, int length) {
        byte[] bytes = value.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(bytes, 0, header, offset, Math.min(bytes.length, length));
    }
}
