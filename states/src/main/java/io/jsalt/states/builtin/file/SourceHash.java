package io.jsalt.states.builtin.file;

import io.jsalt.states.StatesException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code source_hash} as Salt's {@code file.get_source_sum} reads it: {@code sha256=<hex>}, a bare hex digest
 * whose length names its type, or a hash file ({@code salt://}, {@code file://} or an absolute path) from which
 * {@code file.extract_hash} picks the line naming the managed file, the source or {@code source_hash_name}, else
 * the first hash.
 */
public record SourceHash(String type, String hsum) {

    /** Salt's HASHES, strongest first. */
    private static final Map<String, Integer> HASHES = new LinkedHashMap<>();

    static {
        HASHES.put("sha512", 128);
        HASHES.put("sha384", 96);
        HASHES.put("sha256", 64);
        HASHES.put("sha224", 56);
        HASHES.put("sha1", 40);
        HASHES.put("md5", 32);
    }

    private static final Pattern HASH_IN_LINE = Pattern.compile("(?i)(?<![a-z0-9])([a-f0-9]{32,128})(?![a-z0-9])");
    private static final String FILENAME_SEPARATORS = " \t\n\r\u000b\f\\/*";

    /** Reads a hash file named by a {@code source_hash}; empty when it does not exist. */
    public interface HashFiles {
        java.util.Optional<byte[]> read(String url);
    }

    /**
     * @param name the managed file (its base name matches a hash file's line)
     * @param source the source URL (its base name matches too)
     * @throws StatesException with Salt's words when the hash is malformed or its file is missing
     */
    public static SourceHash parse(String sourceHash, String name, String source, String sourceHashName,
            HashFiles files) {
        String proto = scheme(sourceHash);
        if (sourceHash.startsWith("/") || proto.equals("salt") || proto.equals("file")) {
            byte[] text = files.read(sourceHash)
                    .orElseThrow(() -> new StatesException("Source hash file " + sourceHash + " not found"));
            SourceHash found = extract(new String(text, StandardCharsets.UTF_8), name, source, sourceHashName);
            if (found == null) {
                throw invalid(sourceHash);
            }
            return found;
        }
        if (!proto.isEmpty()) {
            throw invalid(sourceHash); // http(s), ftp: jsalt fetches no remote hash files
        }
        int eq = sourceHash.indexOf('=');
        String type;
        String hsum;
        if (eq < 0) {
            if (!sourceHash.matches("[0-9a-fA-F]+")) {
                throw invalid(sourceHash);
            }
            hsum = sourceHash;
            type = typeOfLength(hsum.length());
            if (type == null) {
                throw invalid(sourceHash);
            }
        } else {
            type = sourceHash.substring(0, eq).strip();
            hsum = sourceHash.substring(eq + 1).strip();
        }
        if (!HASHES.containsKey(type)) {
            throw new StatesException("Invalid hash type '" + type + "'. Supported hash types are: "
                    + String.join(", ", HASHES.keySet()) + ". Either remove the hash type and simply use '" + hsum
                    + "' as the source_hash, or change the hash type to a supported type.");
        }
        String lengthType = typeOfLength(hsum.length());
        if (lengthType == null) {
            throw invalid(sourceHash);
        }
        if (hsum.length() != HASHES.get(type)) {
            throw new StatesException("Invalid length (" + hsum.length() + ") for hash type '" + type + "'. Either "
                    + "remove the hash type and simply use '" + hsum + "' as the source_hash, or change the hash type to '"
                    + lengthType + "'");
        }
        return new SourceHash(type, hsum.toLowerCase(Locale.ROOT));
    }

    /** Salt's {@code extract_hash}: a line naming source_hash_name, the file or the source wins, else the first hash. */
    static SourceHash extract(String text, String name, String source, String sourceHashName) {
        SourceHash partial = null;
        SourceHash byHashName = null;
        SourceHash byFileName = null;
        SourceHash bySource = null;
        String fileBase = baseName(name);
        String sourceBase = source == null ? null : baseName(source.replaceFirst("^[a-z0-9+.-]+://", ""));
        for (String raw : text.split("\n", -1)) {
            String line = raw.strip();
            Matcher m = HASH_IN_LINE.matcher(line);
            if (!m.find()) {
                continue;
            }
            String type = typeOfLength(m.group(1).length());
            if (type == null) {
                continue;
            }
            SourceHash matched = new SourceHash(type, m.group(1).toLowerCase(Locale.ROOT));
            if (partial == null) {
                partial = matched;
            }
            if (sourceHashName != null && byHashName == null && names(line, sourceHashName, sourceHashName, " \t")) {
                byHashName = matched;
            }
            if (name != null && byFileName == null && names(line, fileBase, name, FILENAME_SEPARATORS)) {
                byFileName = matched;
            }
            if (sourceBase != null && bySource == null && names(line, sourceBase, source, FILENAME_SEPARATORS)) {
                bySource = matched;
            }
        }
        return byHashName != null ? byHashName : byFileName != null ? byFileName : bySource != null ? bySource : partial;
    }

    /** A line ends with the base name after a separator, or starts with the whole name and white space. */
    private static boolean names(String line, String base, String whole, String separators) {
        if (line.endsWith(base)) {
            int at = line.length() - base.length() - 1;
            return at >= 0 && separators.indexOf(line.charAt(at)) >= 0;
        }
        return line.matches(Pattern.quote(whole) + "\\s+.*");
    }

    private static String baseName(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? path : path.substring(slash + 1);
    }

    static String scheme(String url) {
        Matcher m = Pattern.compile("^([a-zA-Z][a-zA-Z0-9+.-]*)://").matcher(url);
        return m.find() ? m.group(1).toLowerCase(Locale.ROOT) : "";
    }

    private static String typeOfLength(int length) {
        for (Map.Entry<String, Integer> e : HASHES.entrySet()) {
            if (e.getValue() == length) {
                return e.getKey();
            }
        }
        return null;
    }

    private static StatesException invalid(String sourceHash) {
        return new StatesException("Source hash " + sourceHash + " format is invalid. The supported formats are: 1) a "
                + "hash, 2) an expression in the format <hash_type>=<hash>, or 3) either a path to a local file containing "
                + "hashes, or a URI of a remote hash file. Supported protocols for remote hash files are: salt, file, "
                + "http, https, ftp, swift, s3. The hash may also not be of a valid length, the following are supported "
                + "hash types and lengths: md5 (32), sha1 (40), sha224 (56), sha256 (64), sha384 (96), sha512 (128).");
    }

    /** The hex digest of {@code bytes} with this hash's type. */
    public String of(byte[] bytes) {
        return digest(type, bytes);
    }

    public static String digest(String type, byte[] bytes) {
        String algorithm = switch (type) {
            case "md5" -> "MD5";
            case "sha1" -> "SHA-1";
            case "sha224" -> "SHA-224";
            case "sha256" -> "SHA-256";
            case "sha384" -> "SHA-384";
            case "sha512" -> "SHA-512";
            default -> throw new StatesException("unsupported hash type " + type);
        };
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks " + algorithm, e);
        }
    }

    /** A local path of a {@code file://} URL or an absolute path. */
    static Path localPath(String url) {
        return Path.of(url.startsWith("file://") ? url.substring("file://".length()) : url);
    }
}
