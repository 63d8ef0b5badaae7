package io.jsalt.crypto;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the Salt 3006.8 vectors copied under {@code src/test/resources/salt-vectors}. */
final class SaltVectors {
    private SaltVectors() {
    }

    static String text(String path) {
        try (InputStream in = SaltVectors.class.getResourceAsStream("/salt-vectors/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("missing test vector " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Every string value of {@code "name": "..."} in a vector file, in file order. The vector files hold only
     * plain strings (hex, base64, ASCII text) for these fields, so no JSON library is needed.
     */
    static List<String> strings(String json, String name) {
        Matcher matcher = Pattern.compile("\"" + Pattern.quote(name) + "\"\\s*:\\s*\"([^\"\\\\]*)\"").matcher(json);
        List<String> values = new ArrayList<>();
        while (matcher.find()) {
            values.add(matcher.group(1));
        }
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no field " + name);
        }
        return values;
    }

    static String string(String json, String name) {
        return strings(json, name).get(0);
    }

    /** The base64 of a binary field shown as {@code "name": {"b64": "..."}}, first occurrence. */
    static String b64(String json, String name) {
        Matcher matcher = Pattern.compile("\"" + Pattern.quote(name) + "\"\\s*:\\s*\\{\\s*\"b64\"\\s*:\\s*\"([^\"]*)\"")
                .matcher(json);
        if (!matcher.find()) {
            throw new IllegalArgumentException("no binary field " + name);
        }
        return matcher.group(1);
    }

    static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex);
    }
}
