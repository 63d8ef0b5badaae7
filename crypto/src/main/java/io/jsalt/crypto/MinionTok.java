package io.jsalt.crypto;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.util.Arrays;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Salt's {@code tok} ({@code salt.crypt.AsyncAuth.gen_token(b"salt")}): the minion key's X9.31 signature of
 * {@code b"salt"}, which proves a minion's events to its master ({@code _minion_event}). It is deterministic, so
 * a minion makes it once per key and keeps it in a file beside the key ({@code pki_dir/minion.tok}, mode 0600):
 * a restarted minion then spends no private-key operation on it (~8 ms on a minion's C1 JVM).
 *
 * <p>The kept value is believed only when it verifies against the key pair in use (a public-key operation): a
 * file of another key, a new key, a truncated or altered file each make a new token, which replaces the file.
 * Keeping it weakens nothing: it is a signature the minion sends with every event anyway, and whoever can read
 * a file of the minion's pki_dir can read {@code minion.pem} beside it and make it.
 */
public final class MinionTok {
    /** The file's name in a minion's pki_dir. */
    public static final String FILE_NAME = "minion.tok";
    private static final byte[] PLAINTEXT = "salt".getBytes(StandardCharsets.US_ASCII);
    private static final Set<PosixFilePermission> MODE = PosixFilePermissions.fromString("rw-------");
    /** A tok is as long as the key's modulus: 16,384-bit keys at most. */
    private static final int MAX_BYTES = 2048;

    private MinionTok() {
    }

    /**
     * The token of {@code key}: the one kept in {@code file} when it verifies, else a new one, which is written
     * there. A failed write is told to {@code unkept} (why, for a warning) and the token still returned: keeping
     * it is a saving, not a need.
     */
    public static byte[] loadOrMake(Path file, KeyPair key, Consumer<String> unkept) {
        byte[] kept = read(file);
        if (kept != null && proves(key, kept)) {
            return kept;
        }
        byte[] made = make(key);
        try {
            AtomicFile.write(file, made, MODE);
        } catch (CryptoException e) {
            unkept.accept(e.getMessage());
        }
        return made;
    }

    /** A new token of {@code key}: one RSA private-key operation. */
    public static byte[] make(KeyPair key) {
        return Rsa.x931PrivateEncrypt(key.getPrivate(), PLAINTEXT);
    }

    /** Whether {@code tok} is {@code key}'s token. */
    public static boolean proves(KeyPair key, byte[] tok) {
        try {
            return Arrays.equals(Rsa.x931PublicDecrypt(key.getPublic(), tok), PLAINTEXT);
        } catch (CryptoException e) {
            return false;
        }
    }

    /** The file's bytes; null when it is missing, not a regular file, too long or unreadable. */
    private static byte[] read(Path file) {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        try (InputStream in = Files.newInputStream(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            byte[] bytes = in.readNBytes(MAX_BYTES + 1);
            return bytes.length > MAX_BYTES ? null : bytes;
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            return null; // unreadable: made again, and the write says why if it fails too
        }
    }
}
