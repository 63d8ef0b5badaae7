package io.jsalt.master.request;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The local client key: a random secret the master writes to {@code cachedir/.<user>_key} (0600) at
 * start. A client proves it runs as the master's user by sending it back (Salt's access_keys).
 */
public final class ClientKey {
    private final String secret;

    private ClientKey(String secret) {
        this.secret = secret;
    }

    public static Path file(Path cachedir, String user) {
        return cachedir.resolve("." + user + "_key");
    }

    /** Makes a new key and writes it atomically, readable by the owner only. */
    public static ClientKey create(Path cachedir, String user) {
        byte[] raw = new byte[48];
        new SecureRandom().nextBytes(raw);
        String secret = Base64.getEncoder().encodeToString(raw);
        Path target = file(cachedir, user);
        try {
            Files.createDirectories(cachedir);
            Path tmp = Files.createTempFile(cachedir, ".key-", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(tmp, secret, StandardCharsets.US_ASCII);
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the client key " + target, e);
        }
        return new ClientKey(secret);
    }

    /** Reads the key a client presents; the file's own permissions decide who may. */
    public static String read(Path cachedir, String user) throws IOException {
        return Files.readString(file(cachedir, user), StandardCharsets.US_ASCII).trim();
    }

    /** The secret itself, for the eauth guard that forwards an authorized request to the root-key handlers. */
    String value() {
        return secret;
    }

    public boolean matches(Object presented) {
        if (!(presented instanceof String s)) {
            return false;
        }
        return MessageDigest.isEqual(secret.getBytes(StandardCharsets.US_ASCII), s.getBytes(StandardCharsets.US_ASCII));
    }
}
