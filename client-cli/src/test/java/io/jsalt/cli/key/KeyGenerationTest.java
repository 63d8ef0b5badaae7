package io.jsalt.cli.key;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.cli.ExitCode;
import io.jsalt.cli.testing.Console;
import io.jsalt.crypto.Fingerprint;
import io.jsalt.crypto.RsaKeys;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.interfaces.RSAPublicKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** salt-key's --gen-keys: a key pair on disk, Salt's modes and answer, no master and no config needed. */
class KeyGenerationTest {
    @TempDir
    Path tmp;

    private static Console.Run key(String... args) {
        return Console.run(out -> new KeyCommand(out, new ByteArrayInputStream(new byte[0])), args);
    }

    @Test
    void writesThePairWithSaltsModesAndPrintsTheFingerprintAsSaltKeyDoes() throws IOException {
        Path dir = tmp.resolve("seed"); // made when missing, as salt-key does
        Console.Run run = key("-c", tmp.resolve("no-config").toString(), "--gen-keys=web-1", "--gen-keys-dir", dir.toString());

        assertThat(run.exitCode()).as(run.toString()).isZero();
        String pub = Files.readString(dir.resolve("web-1.pub"), StandardCharsets.US_ASCII);
        assertThat(run.stdout()).isEqualTo("return:\n    " + Fingerprint.sha256(pub) + "\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("web-1.pem")))).isEqualTo("r--------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("web-1.pub")))).isEqualTo("rw-r--r--");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
        assertThat(RsaKeys.readKeyPair(dir.resolve("web-1.pem")).getPublic()).isEqualTo(RsaKeys.parsePublicKey(pub));
        assertThat(((RSAPublicKey) RsaKeys.parsePublicKey(pub)).getModulus().bitLength()).isEqualTo(2048);
    }

    @Test
    void anExistingKeyIsKeptAndItsFingerprintPrinted() throws IOException {
        key("--gen-keys", "m1", "--gen-keys-dir", tmp.toString());
        String pem = Files.readString(tmp.resolve("m1.pem"));

        Console.Run again = key("--gen-keys", "m1", "--gen-keys-dir", tmp.toString(), "--out", "json");

        assertThat(again.exitCode()).isZero();
        assertThat(Files.readString(tmp.resolve("m1.pem"))).isEqualTo(pem);
        assertThat(again.stdout()).isEqualTo("{\n    \"return\": \"" + Fingerprint.sha256(Files.readString(tmp.resolve("m1.pub"))) + "\"\n}\n");
    }

    @Test
    void keysizeChoosesTheSizeWithinSaltsBounds() throws IOException {
        assertThat(key("--gen-keys", "big", "--gen-keys-dir", tmp.toString(), "--keysize", "3072").exitCode()).isZero();
        assertThat(((RSAPublicKey) RsaKeys.readPublicKey(tmp.resolve("big.pub"))).getModulus().bitLength()).isEqualTo(3072);

        Console.Run small = key("--gen-keys", "small", "--gen-keys-dir", tmp.toString(), "--keysize", "1024");
        assertThat(small.exitCode()).isEqualTo(ExitCode.USAGE.code());
        assertThat(small.stderr()).contains("The minimum value for keysize is 2048");
        assertThat(key("--gen-keys", "huge", "--gen-keys-dir", tmp.toString(), "--keysize", "40000").stderr())
                .contains("The maximum value for keysize is 32768");
        assertThat(tmp.resolve("small.pem")).doesNotExist();
    }

    @Test
    void aNameThatWouldLeaveTheFolderIsRefusedAndNothingIsWritten() throws IOException {
        for (String name : new String[] {"../evil", "a/b", ".hidden", ""}) {
            Console.Run run = key("--gen-keys", name, "--gen-keys-dir", tmp.resolve("d").toString());
            assertThat(run.exitCode()).as(name).isEqualTo(ExitCode.USAGE.code());
        }
        assertThat(tmp.resolve("d")).doesNotExist();
        assertThat(tmp.resolve("evil.pem")).doesNotExist();
    }

    @Test
    void keysizeWithoutGenKeysIsAUsageError() {
        Console.Run run = key("-L", "--keysize", "4096");
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE.code());
        assertThat(run.stderr()).contains("--keysize goes with --gen-keys");
    }
}
