package io.jsalt.states.render;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Salt's digest, HMAC and base64 filters (salt/utils/hashutils.py), on the UTF-8 bytes of the text. */
final class HashFilters {
    private static final SecureRandom RANDOM = new SecureRandom();

    private HashFilters() {
    }

    static List<SaltFilter> all() {
        return List.of(
                new SaltFilter("md5", (value, args) -> digest("MD5", value)),
                new SaltFilter("sha1", (value, args) -> digest("SHA-1", value)),
                new SaltFilter("sha256", (value, args) -> digest("SHA-256", value)),
                new SaltFilter("sha512", (value, args) -> digest("SHA-512", value)),
                new SaltFilter("base64_encode", (value, args) -> Base64.getEncoder().encodeToString(bytes(value))),
                new SaltFilter("base64_decode", (value, args) -> base64Decode(PythonValues.str(value))),
                new SaltFilter("hmac", (value, args) -> Base64.getEncoder().encodeToString(hmac(value,
                        args.required(0, "shared_secret"))).equals(PythonValues.str(args.required(1, "challenge_hmac")))),
                new SaltFilter("hmac_compute", (value, args) -> HexFormat.of().formatHex(hmac(value,
                        args.required(0, "shared_secret")))),
                new SaltFilter("random_hash", HashFilters::randomHash),
                new SaltFilter("rand_str", HashFilters::randomHash));
    }

    private static byte[] bytes(Object value) {
        return PythonValues.str(value).getBytes(StandardCharsets.UTF_8);
    }

    private static String digest(String algorithm, Object value) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(bytes(value)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Salt gives text back when the bytes are UTF-8; jsalt refuses other bytes (a template holds text). */
    private static String base64Decode(String text) {
        byte[] decoded;
        try {
            decoded = Base64.getMimeDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new RenderException("Incorrect padding or bad base64 text: " + e.getMessage());
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(decoded)).toString();
        } catch (CharacterCodingException e) {
            throw new RenderException("the decoded bytes are not UTF-8 text");
        }
    }

    private static byte[] hmac(Object value, Object secret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(bytes(secret), "HmacSHA256"));
            return mac.doFinal(bytes(value));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new RenderException("hmac: " + e.getMessage());
        }
    }

    /** Salt's {@code random_hash(size, hash_type='md5')}: the digest of a random number from 0 to size. */
    private static Object randomHash(Object value, SaltFilter.Args args) {
        long size = value == null ? 9999999999L : ((Number) TextFilters.toNum(value)).longValue();
        String type = args.text(0, "hash_type", "md5");
        String algorithm = switch (type == null ? "md5" : type.toLowerCase(Locale.ROOT)) {
            case "md5" -> "MD5";
            case "sha1" -> "SHA-1";
            case "sha224" -> "SHA-224";
            case "sha256" -> "SHA-256";
            case "sha384" -> "SHA-384";
            case "sha512" -> "SHA-512";
            default -> throw new RenderException("module 'hashlib' has no attribute '" + type + "'");
        };
        long n = size <= 0 ? 0 : RANDOM.nextLong(size + 1);
        return digest(algorithm, String.valueOf(n));
    }
}
