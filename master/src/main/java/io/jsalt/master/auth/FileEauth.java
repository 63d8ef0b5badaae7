package io.jsalt.master.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Salt's {@code file} eauth backend ({@code salt/auth/file.py}) with its {@code ^} options:
 * {@code filename}, {@code filetype} ({@code text} or {@code htpasswd}), and for text files {@code hashtype}
 * ({@code plaintext}, {@code md5}, {@code sha1}, {@code sha256}, {@code sha512}: hex digests as Salt's
 * hashutil.digest writes them), {@code field_separator}, {@code username_field}, {@code password_field}.
 * htpasswd lines may hold bcrypt ({@code $2y$}, {@code $2a$}, {@code $2b$}) or {@code {SHA}} hashes; other
 * kinds (apr1 MD5, crypt) are refused. The file is read on every login, so edits apply at once.
 */
public final class FileEauth implements EauthBackend {
    private static final Logger log = LoggerFactory.getLogger(FileEauth.class);
    private static final Pattern BCRYPT = Pattern.compile("^\\$2[aby]\\$\\d\\d\\$.{53}$");

    private final Path file;
    private final String filetype;
    private final String hashtype;
    private final String separator;
    private final int userField;
    private final int passwordField;

    /** @param options the backend's {@code ^} options without the caret; a missing or bad one is refused */
    public FileEauth(Map<String, Object> options) {
        Object filename = options.get("filename");
        if (filename == null) {
            throw new IllegalArgumentException("external_auth:file needs ^filename (the users file)");
        }
        file = Path.of(String.valueOf(filename));
        filetype = String.valueOf(options.getOrDefault("filetype", "text")).toLowerCase(Locale.ROOT);
        hashtype = String.valueOf(options.getOrDefault("hashtype", "plaintext")).toLowerCase(Locale.ROOT);
        separator = String.valueOf(options.getOrDefault("field_separator", ":"));
        userField = Integer.parseInt(String.valueOf(options.getOrDefault("username_field", 1))) - 1;
        passwordField = Integer.parseInt(String.valueOf(options.getOrDefault("password_field", 2))) - 1;
        if (!List.of("text", "htpasswd").contains(filetype)) {
            throw new IllegalArgumentException("external_auth:file ^filetype must be text or htpasswd, not " + filetype);
        }
        if (userField < 0 || passwordField < 0) {
            throw new IllegalArgumentException("external_auth:file ^username_field and ^password_field count from 1");
        }
        if (filetype.equals("text") && !hashtype.equals("plaintext")) {
            digest(hashtype, "");
        }
    }

    /** Whether the file holds {@code user} with {@code password}; the first line naming the user decides, as in Salt. */
    public boolean matches(String user, String password) {
        String stored = storedPassword(user);
        if (stored == null) {
            return false;
        }
        return filetype.equals("htpasswd") ? htpasswdMatches(stored, password) : textMatches(stored, password);
    }

    /** The file knows no groups (Salt's file backend neither). */
    @Override
    public Optional<List<String>> authenticate(String user, String password) {
        return password != null && !password.isEmpty() && matches(user, password) ? Optional.of(List.of()) : Optional.empty();
    }

    /** Whether the file still names {@code user}: a user deleted from it loses their live tokens. */
    @Override
    public boolean hasUser(String user) {
        return storedPassword(user) != null;
    }

    /** The password field of the first line naming {@code user}, or null (also when the file cannot be read). */
    private String storedPassword(String user) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            log.error("cannot read the external_auth users file {}: {}", file, e.getMessage());
            return null;
        }
        boolean htpasswd = filetype.equals("htpasswd");
        String sep = htpasswd ? ":" : separator;
        int u = htpasswd ? 0 : userField;
        int p = htpasswd ? 1 : passwordField;
        for (String line : lines) {
            String[] fields = line.strip().split(Pattern.quote(sep), -1);
            if (fields.length > Math.max(u, p) && fields[u].equals(user)) {
                return fields[p];
            }
        }
        return null;
    }

    private boolean textMatches(String stored, String password) {
        String offered = hashtype.equals("plaintext") ? password : digest(hashtype, password);
        return MessageDigest.isEqual(stored.getBytes(StandardCharsets.UTF_8), offered.getBytes(StandardCharsets.UTF_8));
    }

    private boolean htpasswdMatches(String stored, String password) {
        if (BCRYPT.matcher(stored).matches()) {
            // BouncyCastle's OpenBSDBCrypt reads $2y$ (Apache's htpasswd -B) as well as $2a$/$2b$
            return OpenBSDBCrypt.checkPassword(stored, password.toCharArray());
        }
        if (stored.startsWith("{SHA}")) {
            String offered = "{SHA}" + Base64.getEncoder().encodeToString(sha("SHA-1", password));
            return MessageDigest.isEqual(stored.getBytes(StandardCharsets.UTF_8), offered.getBytes(StandardCharsets.UTF_8));
        }
        log.warn("the htpasswd entry's hash kind is not supported (bcrypt and {{SHA}} are); login refused");
        return false;
    }

    private static String digest(String hashtype, String password) {
        String algorithm = switch (hashtype) {
            case "md5" -> "MD5";
            case "sha1" -> "SHA-1";
            case "sha224" -> "SHA-224";
            case "sha256" -> "SHA-256";
            case "sha384" -> "SHA-384";
            case "sha512" -> "SHA-512";
            default -> throw new IllegalArgumentException("external_auth:file ^hashtype " + hashtype
                    + " is not supported: plaintext, md5, sha1, sha224, sha256, sha384 or sha512");
        };
        return HexFormat.of().formatHex(sha(algorithm, password));
    }

    private static byte[] sha(String algorithm, String password) {
        try {
            return MessageDigest.getInstance(algorithm).digest(password.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks " + algorithm, e);
        }
    }
}
