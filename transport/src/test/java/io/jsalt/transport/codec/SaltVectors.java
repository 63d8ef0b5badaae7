package io.jsalt.transport.codec;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The Salt 3006.8 vectors copied under {@code src/test/resources/salt-vectors}, and the conventions of
 * their JSON files: a byte string that is not UTF-8 is {@code {"b64": ...}}, a datetime {@code {"datetime": iso}}.
 */
final class SaltVectors {

    private static final String ROOT = "salt-vectors/";
    private static final DateTimeFormatter ISO_MICROS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS");

    private SaltVectors() {
    }

    static byte[] bytes(String path) {
        try (InputStream in = SaltVectors.class.getClassLoader().getResourceAsStream(ROOT + path)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + ROOT + path);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Map<String, Object> json(String path) {
        return Wire.asMap(Json.parse(new String(bytes(path), StandardCharsets.UTF_8)));
    }

    /** Paths (relative to salt-vectors/) of the files under {@code folder} ending in {@code suffix}, sorted. */
    static List<String> list(String folder, String suffix) {
        URL url = SaltVectors.class.getClassLoader().getResource(ROOT + folder);
        if (url == null) {
            throw new IllegalStateException("missing test resource folder " + ROOT + folder);
        }
        try (Stream<Path> files = Files.walk(Paths.get(url.toURI()))) {
            Path base = Paths.get(SaltVectors.class.getClassLoader().getResource(ROOT).toURI());
            return files.filter(Files::isRegularFile)
                    .map(file -> base.relativize(file).toString().replace('\\', '/'))
                    .filter(name -> name.endsWith(suffix))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The JSON file that describes a capture file: same name, .json instead of .bin. */
    static Map<String, Object> describing(String binPath) {
        return json(binPath.substring(0, binPath.length() - ".bin".length()) + ".json");
    }

    /** A vector's JSON value as the Java value jsalt packs: b64 objects become bytes, datetime objects LocalDateTime. */
    static Object toJava(Object json) {
        if (json instanceof Map<?, ?> map) {
            if (map.size() == 1 && map.get("b64") instanceof String b64) {
                return Base64.getDecoder().decode(b64);
            }
            if (map.size() == 1 && map.get("datetime") instanceof String iso) {
                return LocalDateTime.parse(iso);
            }
            Map<Object, Object> out = new LinkedHashMap<>();
            map.forEach((key, value) -> out.put(key, toJava(value)));
            return out;
        }
        if (json instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            list.forEach(item -> out.add(toJava(item)));
            return out;
        }
        return json;
    }

    /** A decoded value in the vectors' JSON convention, so that it can be compared with equals. */
    static Object toVectorJson(Object value) {
        if (value instanceof byte[] bytes) {
            return Map.of("b64", Base64.getEncoder().encodeToString(bytes));
        }
        if (value instanceof LocalDateTime dateTime) {
            return Map.of("datetime", ISO_MICROS.format(dateTime));
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            map.forEach((key, item) -> out.put(toVectorJson(key), toVectorJson(item)));
            return out;
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            list.forEach(item -> out.add(toVectorJson(item)));
            return out;
        }
        return value;
    }
}
