package io.jsalt.minion.auth;

import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.Fingerprint;
import io.jsalt.crypto.RsaKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PublicKey;
import java.util.Optional;

/**
 * The master's public key as this minion trusts it: {@code minion_master.pub}, learned on first contact
 * and pinned from then on (Salt's behaviour), and checked against {@code master_finger} when set.
 */
public final class MasterKeyPin {
    private final Path file;
    private final String expectedFinger;

    public MasterKeyPin(Path pkiDir, String masterFinger) {
        this.file = pkiDir.resolve("minion_master.pub");
        this.expectedFinger = masterFinger == null ? "" : masterFinger.toLowerCase();
    }

    public Optional<PublicKey> pinned() {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(RsaKeys.readPublicKey(file));
        } catch (CryptoException e) {
            throw new CryptoException("the pinned master key " + file + " is unreadable: " + e.getMessage(), e);
        }
    }

    /** Why this presented key must be refused, or empty when it may be trusted. */
    public Optional<String> refusal(String presentedPem, PublicKey presented) {
        Optional<PublicKey> pinned = pinned();
        if (pinned.isPresent() && !pinned.get().equals(presented)) {
            return Optional.of("the master presented a key other than the one pinned in " + file
                    + "; if the master was rebuilt on purpose, remove that file");
        }
        if (!expectedFinger.isEmpty() && !Fingerprint.sha256(presentedPem).equals(expectedFinger)) {
            return Optional.of("the master key fingerprint " + Fingerprint.sha256(presentedPem)
                    + " does not match master_finger " + expectedFinger);
        }
        return Optional.empty();
    }

    /** Pins the key on first contact; a no-op when one is already pinned. */
    public void pinIfAbsent(String pem) {
        if (Files.isRegularFile(file)) {
            return;
        }
        try {
            Path tmp = Files.createTempFile(file.getParent(), ".master-", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
            Files.writeString(tmp, pem, StandardCharsets.US_ASCII);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot pin the master key to " + file, e);
        }
    }
}
