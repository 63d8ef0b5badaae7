package io.jsalt.transport.message;

import io.jsalt.transport.codec.Json;
import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.transport.codec.Wire;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The Salt 3006.8 vectors copied under {@code src/test/resources/salt-vectors} (adapted from the codec
 * tests' helper, which other packages cannot see). In their JSON a byte string that is not UTF-8 is
 * {@code {"b64": ...}}; {@link #toVectorJson} turns a decoded value into that convention for comparison.
 */
public final class Vectors {
    public static final String RUN1 = "frames/run1-auto-accept/";
    public static final String RUN2 = "frames/run2-pending-then-accepted-zmq-filtering/";
    public static final String MINION_ID = "vector-minion";

    private static final String ROOT = "salt-vectors/";

    private Vectors() {}

    public static byte[] bytes(String path) {
        try (InputStream in = Vectors.class.getClassLoader().getResourceAsStream(ROOT + path)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + ROOT + path);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String text(String path) {
        return new String(bytes(path), StandardCharsets.UTF_8);
    }

    public static Map<String, Object> json(String path) {
        return Wire.asMap(Json.parse(text(path)));
    }

    /** Paths (relative to salt-vectors/) of the files under {@code folder} ending in {@code suffix}, sorted. */
    public static List<String> list(String folder, String suffix) {
        URL url = Vectors.class.getClassLoader().getResource(ROOT + folder);
        if (url == null) {
            throw new IllegalStateException("missing test resource folder " + ROOT + folder);
        }
        try (Stream<Path> files = Files.walk(Paths.get(url.toURI()))) {
            Path base = Paths.get(Vectors.class.getClassLoader().getResource(ROOT).toURI());
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

    /** The captured frame {@code <run><name>.bin}, for example {@code frame(RUN1, "011")}. */
    public static byte[] frame(String run, String number) {
        return bytes(framePath(run, number));
    }

    /** The JSON that describes the captured frame with that number. */
    public static Map<String, Object> described(String run, String number) {
        String bin = framePath(run, number);
        return json(bin.substring(0, bin.length() - ".bin".length()) + ".json");
    }

    /** The JSON file that describes a capture file: same name, .json instead of .bin. */
    public static Map<String, Object> describing(String binPath) {
        return json(binPath.substring(0, binPath.length() - ".bin".length()) + ".json");
    }

    private static String framePath(String run, String number) {
        List<String> matches = list(run, ".bin").stream()
                .filter(p -> p.substring(p.lastIndexOf('/') + 1).startsWith(number + "-"))
                .toList();
        if (matches.size() != 1) {
            throw new IllegalStateException("expected one frame " + number + " in " + run + ", found " + matches);
        }
        return matches.get(0);
    }

    /** A decoded field of a vector JSON, walking nested maps: {@code path(d, "load_crypticle", "decoded")}. */
    public static Object path(Map<String, Object> json, String... keys) {
        Object value = json;
        for (String key : keys) {
            value = Wire.asMap(value).get(key);
            if (value == null) {
                throw new IllegalStateException("vector has no " + String.join(".", keys));
            }
        }
        return value;
    }

    public static Map<String, Object> map(Map<String, Object> json, String... keys) {
        return Wire.asMap(path(json, keys));
    }

    /** The bytes of a vector value: {@code {"b64": ...}} or a UTF-8 string. */
    public static byte[] blob(Object jsonValue) {
        if (jsonValue instanceof Map<?, ?> m && m.get("b64") instanceof String b64) {
            return Base64.getDecoder().decode(b64);
        }
        if (jsonValue instanceof String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
        throw new IllegalArgumentException("not a byte string in the vector: " + jsonValue);
    }

    public static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex);
    }

    /** The session keys of a run, in the order they were learned. */
    public static List<String> sessionKeys(String run) {
        List<Object> keys = Wire.list(json(run + "_index.json"), "session_keys_in_order");
        return keys.stream().map(String.class::cast).toList();
    }

    public static Crypticle sessionCrypticle(String run, int index) {
        return new Crypticle(sessionKeys(run).get(index));
    }

    public static String masterPubPem() {
        return text("keys/master.pub");
    }

    public static String minionPubPem() {
        return text("keys/minion.pub");
    }

    public static PublicKey masterPub() {
        return Keys.MASTER_PUB;
    }

    public static PrivateKey masterPem() {
        return Keys.MASTER_PEM;
    }

    public static PublicKey minionPub() {
        return Keys.MINION_PUB;
    }

    public static PrivateKey minionPem() {
        return Keys.MINION_PEM;
    }

    /** A decoded value in the vectors' JSON convention, so that it can be compared with equals. */
    public static Object toVectorJson(Object value) {
        if (value instanceof byte[] bytes) {
            return Map.of("b64", Base64.getEncoder().encodeToString(bytes));
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
        if (value instanceof Integer i) {
            return i.longValue();
        }
        return value;
    }

    /** Loaded once: parsing is cheap, but every test class shares them. */
    private static final class Keys {
        static final PublicKey MASTER_PUB = RsaKeys.parsePublicKey(text("keys/master.pub"));
        static final PrivateKey MASTER_PEM = RsaKeys.parsePrivateKey(text("keys/master.pem"));
        static final PublicKey MINION_PUB = RsaKeys.parsePublicKey(text("keys/minion.pub"));
        static final PrivateKey MINION_PEM = RsaKeys.parsePrivateKey(text("keys/minion.pem"));
    }
}
