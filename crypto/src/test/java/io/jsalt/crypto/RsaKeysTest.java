package io.jsalt.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.RSAPublicKey;
import java.math.BigInteger;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RsaKeysTest {
    @TempDir
    Path temp;

    @ParameterizedTest
    @ValueSource(strings = {"minion", "master"})
    void privateKeyPemRoundTripsSaltsFileByteForByte(String name) {
        String pem = SaltVectors.text("keys/" + name + ".pem");
        assertThat(RsaKeys.privateKeyPem(RsaKeys.parsePrivateKey(pem))).isEqualTo(pem);
    }

    @ParameterizedTest
    @ValueSource(strings = {"minion", "master"})
    void publicKeyPemRoundTripsSaltsFileByteForByte(String name) {
        String pub = SaltVectors.text("keys/" + name + ".pub");
        assertThat(RsaKeys.publicKeyPem(RsaKeys.parsePublicKey(pub))).isEqualTo(pub);
    }

    @ParameterizedTest
    @ValueSource(strings = {"minion", "master"})
    void publicKeyDerivedFromThePrivateKeyEqualsSaltsPublicFile(String name) {
        PrivateKey privateKey = RsaKeys.parsePrivateKey(SaltVectors.text("keys/" + name + ".pem"));
        assertThat(RsaKeys.publicKeyPem(RsaKeys.publicKeyOf(privateKey)))
                .isEqualTo(SaltVectors.text("keys/" + name + ".pub"));
    }

    @Test
    void parsingToleratesSurroundingWhitespace() {
        String pub = SaltVectors.text("keys/minion.pub");
        PublicKey key = RsaKeys.parsePublicKey("\n  " + pub + "\r\n\n");
        assertThat(RsaKeys.publicKeyPem(key)).isEqualTo(pub);
        String pem = SaltVectors.text("keys/minion.pem");
        assertThat(RsaKeys.privateKeyPem(RsaKeys.parsePrivateKey(" \n" + pem + "\n"))).isEqualTo(pem);
    }

    @Test
    void parsesAPkcs1RsaPublicKey() throws Exception {
        PublicKey spki = RsaKeys.parsePublicKey(SaltVectors.text("keys/minion.pub"));
        byte[] pkcs1 = SubjectPublicKeyInfo.getInstance(spki.getEncoded()).parsePublicKey().getEncoded();
        PublicKey parsed = RsaKeys.parsePublicKey(PemArmor.armor("RSA PUBLIC KEY", pkcs1));
        assertThat(parsed.getEncoded()).isEqualTo(spki.getEncoded());
    }

    @Test
    void parsesAPkcs8PrivateKey() {
        String pem = SaltVectors.text("keys/master.pem");
        PrivateKey key = RsaKeys.parsePrivateKey(pem);
        PrivateKey parsed = RsaKeys.parsePrivateKey(PemArmor.armor("PRIVATE KEY", key.getEncoded()));
        assertThat(RsaKeys.privateKeyPem(parsed)).isEqualTo(pem);
    }

    @Test
    void refusesGarbageAndKeysOfTheWrongKind() {
        String pem = SaltVectors.text("keys/minion.pem");
        String pub = SaltVectors.text("keys/minion.pub");
        assertThatThrownBy(() -> RsaKeys.parsePublicKey("hello")).isInstanceOf(CryptoException.class);
        assertThatThrownBy(() -> RsaKeys.parsePublicKey(pem)).isInstanceOf(CryptoException.class);
        assertThatThrownBy(() -> RsaKeys.parsePrivateKey(pub)).isInstanceOf(CryptoException.class);
        assertThatThrownBy(() -> RsaKeys.parsePublicKey(pub.replace("MIIB", "!!!!")))
                .isInstanceOf(CryptoException.class);
        assertThatThrownBy(() -> RsaKeys.parsePublicKey(pub.substring(0, 200) + "\n-----END PUBLIC KEY-----"))
                .isInstanceOf(CryptoException.class);
        assertThatThrownBy(() -> RsaKeys.parsePrivateKey(null)).isInstanceOf(CryptoException.class);
    }

    @Test
    void readsKeyFilesFromDisk() throws Exception {
        Path pem = Files.writeString(temp.resolve("minion.pem"), SaltVectors.text("keys/minion.pem"));
        Path pub = Files.writeString(temp.resolve("minion.pub"), SaltVectors.text("keys/minion.pub"));
        KeyPair pair = RsaKeys.readKeyPair(pem);
        assertThat(pair.getPublic().getEncoded()).isEqualTo(RsaKeys.readPublicKey(pub).getEncoded());
        assertThatThrownBy(() -> RsaKeys.readPublicKey(temp.resolve("absent.pub")))
                .isInstanceOf(CryptoException.class);
    }

    @Test
    void writePublicKeyWritesMode0644AndLeavesNoTemporaryFile() throws Exception {
        PublicKey key = RsaKeys.parsePublicKey(SaltVectors.text("keys/master.pub"));
        Path file = temp.resolve("master.pub");
        Files.writeString(file, "old content");
        RsaKeys.writePublicKey(file, key);

        assertThat(Files.readString(file, StandardCharsets.US_ASCII)).isEqualTo(SaltVectors.text("keys/master.pub"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r--r--");
        try (var listing = Files.list(temp)) {
            assertThat(listing).containsExactly(file);
        }
    }

    @Test
    void loadOrCreateGeneratesA2048BitPairWithSaltsModesThenLoadsTheSamePair() throws Exception {
        Path dir = temp.resolve("pki").resolve("minion");
        KeyPair created = RsaKeys.loadOrCreate(dir, "minion");

        RSAPublicKey publicKey = (RSAPublicKey) created.getPublic();
        assertThat(publicKey.getModulus().bitLength()).isEqualTo(2048);
        assertThat(publicKey.getPublicExponent()).isEqualTo(BigInteger.valueOf(65537));
        assertThat(mode(dir)).isEqualTo("rwx------");
        assertThat(mode(dir.resolve("minion.pem"))).isEqualTo("r--------");
        assertThat(mode(dir.resolve("minion.pub"))).isEqualTo("rw-r--r--");
        assertThat(Files.readString(dir.resolve("minion.pem"))).isEqualTo(RsaKeys.privateKeyPem(created.getPrivate()));
        assertThat(Files.readString(dir.resolve("minion.pub"))).isEqualTo(RsaKeys.publicKeyPem(publicKey));
        try (var listing = Files.list(dir)) {
            assertThat(listing).hasSize(2);
        }

        KeyPair loaded = RsaKeys.loadOrCreate(dir, "minion");
        assertThat(loaded.getPrivate().getEncoded()).isEqualTo(created.getPrivate().getEncoded());
        assertThat(loaded.getPublic().getEncoded()).isEqualTo(created.getPublic().getEncoded());
    }

    @Test
    void loadOrCreateLoadsAnExistingSaltKeyAndRewritesItsMissingPublicFile() throws Exception {
        Files.writeString(temp.resolve("master.pem"), SaltVectors.text("keys/master.pem"));
        KeyPair pair = RsaKeys.loadOrCreate(temp, "master");

        assertThat(RsaKeys.publicKeyPem(pair.getPublic())).isEqualTo(SaltVectors.text("keys/master.pub"));
        assertThat(Files.readString(temp.resolve("master.pub"))).isEqualTo(SaltVectors.text("keys/master.pub"));
        assertThat(mode(temp.resolve("master.pub"))).isEqualTo("rw-r--r--");
    }

    @Test
    void loadOrCreateRefusesANameThatWouldLeaveTheDirectory() {
        assertThatThrownBy(() -> RsaKeys.loadOrCreate(temp, "../evil")).isInstanceOf(CryptoException.class);
        assertThatThrownBy(() -> RsaKeys.loadOrCreate(temp, "")).isInstanceOf(CryptoException.class);
    }

    @Test
    void loadOrCreateFailsOnACorruptPrivateKeyInsteadOfReplacingIt() throws Exception {
        Path pem = Files.writeString(temp.resolve("minion.pem"), "not a key");
        assertThatThrownBy(() -> RsaKeys.loadOrCreate(temp, "minion")).isInstanceOf(CryptoException.class);
        assertThat(Files.readString(pem)).isEqualTo("not a key");
    }

    private static String mode(Path path) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
