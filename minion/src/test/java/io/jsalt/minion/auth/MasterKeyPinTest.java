package io.jsalt.minion.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.Fingerprint;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.minion.testing.SaltVectors;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PublicKey;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MasterKeyPinTest {
    @TempDir
    Path pki;

    private final String masterPem = SaltVectors.text("keys/master.pub");
    private final PublicKey masterKey = SaltVectors.masterKeyPair().getPublic();
    /** Another RSA key, to play a master this minion has never met. */
    private final String otherPem = SaltVectors.text("keys/minion.pub");
    private final PublicKey otherKey = SaltVectors.minionKeyPair().getPublic();

    @Test
    void withNothingPinnedAndNoFingerTrustsAnyKey() {
        MasterKeyPin pin = new MasterKeyPin(pki, "");

        assertThat(pin.pinned()).isEmpty();
        assertThat(pin.refusal(masterPem, masterKey)).isEmpty();
        assertThat(pin.refusal(otherPem, otherKey)).isEmpty();
    }

    @Test
    void nullMasterFingerMeansNoFingerCheck() {
        assertThat(new MasterKeyPin(pki, null).refusal(otherPem, otherKey)).isEmpty();
    }

    @Test
    void pinIfAbsentWritesMinionMasterPubWithTheKeyAndNoLeftovers() throws Exception {
        MasterKeyPin pin = new MasterKeyPin(pki, "");

        pin.pinIfAbsent(masterPem);

        Path file = pki.resolve("minion_master.pub");
        assertThat(Files.readString(file, StandardCharsets.US_ASCII)).isEqualTo(masterPem);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r--r--");
        try (Stream<Path> files = Files.list(pki)) {
            assertThat(files.map(p -> p.getFileName().toString())).as("no temporary file left behind").containsExactly("minion_master.pub");
        }
        assertThat(pin.pinned()).contains(masterKey);
    }

    @Test
    void oncePinnedRefusesAnyOtherKeyNamingTheFile() {
        MasterKeyPin pin = new MasterKeyPin(pki, "");
        pin.pinIfAbsent(masterPem);

        assertThat(pin.refusal(masterPem, masterKey)).isEmpty();
        assertThat(pin.refusal(otherPem, otherKey)).hasValueSatisfying(reason -> assertThat(reason)
                .contains(pki.resolve("minion_master.pub").toString())
                .contains("other than the one pinned"));
    }

    @Test
    void aPinSurvivesANewInstanceOverTheSameFolder() {
        new MasterKeyPin(pki, "").pinIfAbsent(masterPem);

        MasterKeyPin afterRestart = new MasterKeyPin(pki, "");

        assertThat(afterRestart.pinned()).contains(masterKey);
        assertThat(afterRestart.refusal(otherPem, otherKey)).isPresent();
    }

    @Test
    void pinIfAbsentNeverReplacesAPinnedKey() throws Exception {
        MasterKeyPin pin = new MasterKeyPin(pki, "");
        pin.pinIfAbsent(masterPem);

        pin.pinIfAbsent(otherPem);

        assertThat(Files.readString(pki.resolve("minion_master.pub"), StandardCharsets.US_ASCII)).isEqualTo(masterPem);
        assertThat(pin.pinned()).contains(masterKey);
    }

    @Test
    void aKeyWhoseFingerprintMatchesMasterFingerIsTrusted() {
        String finger = SaltVectors.saltFingerprint("master.pub");
        assertThat(Fingerprint.sha256(masterPem)).as("the fingerprint salt-key printed").isEqualTo(finger);

        assertThat(new MasterKeyPin(pki, finger).refusal(masterPem, masterKey)).isEmpty();
        assertThat(new MasterKeyPin(pki, finger.toUpperCase()).refusal(masterPem, masterKey)).as("either case").isEmpty();
    }

    @Test
    void aKeyWhoseFingerprintDiffersFromMasterFingerIsRefusedNamingBoth() {
        String finger = SaltVectors.saltFingerprint("master.pub");

        assertThat(new MasterKeyPin(pki, finger).refusal(otherPem, otherKey)).hasValueSatisfying(reason -> assertThat(reason)
                .contains("master_finger")
                .contains(finger)
                .contains(Fingerprint.sha256(otherPem)));
    }

    @Test
    void masterFingerIsCheckedEvenWhenTheKeyIsPinned() {
        String wrongFinger = Fingerprint.sha256(otherPem);
        MasterKeyPin pin = new MasterKeyPin(pki, wrongFinger);
        pin.pinIfAbsent(masterPem);

        assertThat(pin.refusal(masterPem, masterKey)).hasValueSatisfying(reason -> assertThat(reason).contains("master_finger"));
    }

    @Test
    void anUnreadablePinnedFileFailsLoudlyNamingIt() throws Exception {
        Files.writeString(pki.resolve("minion_master.pub"), "not a key\n");
        MasterKeyPin pin = new MasterKeyPin(pki, "");

        assertThatThrownBy(pin::pinned).isInstanceOf(CryptoException.class)
                .hasMessageContaining(pki.resolve("minion_master.pub").toString());
    }

    @Test
    void aPinnedKeyWrittenAsSaltWritesItIsRead() throws Exception {
        RsaKeys.writePublicKey(pki.resolve("minion_master.pub"), masterKey);

        assertThat(new MasterKeyPin(pki, "").pinned()).contains(masterKey);
    }
}
