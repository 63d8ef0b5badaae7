package io.jsalt.cli.key;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ExitCode;
import io.jsalt.config.MinionId;
import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.Fingerprint;
import io.jsalt.crypto.RsaKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * salt-key's {@code --gen-keys NAME [--gen-keys-dir DIR] [--keysize BITS]}: writes a key pair
 * {@code DIR/NAME.pem} (0400) and {@code DIR/NAME.pub} (0644), e.g. to pre-seed a minion, and answers the public
 * key's sha256 fingerprint. As in Salt, an existing {@code NAME.pem} is kept (its fingerprint is answered), never
 * overwritten; it needs no master and no config.
 */
final class KeyGeneration {
    /** salt-key's bounds for --keysize. */
    static final int MIN_BITS = 2048;
    static final int MAX_BITS = 32768;

    private KeyGeneration() {}

    static String generate(Path dir, String name, int bits) {
        if (bits < MIN_BITS) {
            throw new CliException(ExitCode.USAGE, "The minimum value for keysize is " + MIN_BITS);
        }
        if (bits > MAX_BITS) {
            throw new CliException(ExitCode.USAGE, "The maximum value for keysize is " + MAX_BITS);
        }
        if (!MinionId.isValid(name) || name.startsWith(".")) {
            throw new CliException(ExitCode.USAGE, "--gen-keys: '" + name + "' is not a key name (1 to 255 of A-Z a-z 0-9 . _ @ -, "
                    + "not starting with '.')");
        }
        try {
            // RsaKeys checks the name again: letters, digits and . _ @ -, so the files stay inside dir
            RsaKeys.loadOrCreate(dir, name, bits);
            return Fingerprint.sha256(Files.readString(dir.resolve(name + ".pub"), StandardCharsets.US_ASCII));
        } catch (CryptoException e) {
            throw new CliException(ExitCode.CANT_CREATE, "cannot write the key pair " + name + " in " + dir + ": " + e.getMessage());
        } catch (IOException | UncheckedIOException e) {
            throw new CliException(ExitCode.CANT_CREATE, "cannot read " + dir.resolve(name + ".pub") + ": " + e.getMessage());
        }
    }
}
