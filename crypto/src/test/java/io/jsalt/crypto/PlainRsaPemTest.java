package io.jsalt.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.security.PrivateKey;
import java.security.PublicKey;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The JDK-only reading of plain PEM keys gives exactly the keys Bouncy Castle's parser gives, and nothing else. */
class PlainRsaPemTest {
    @ParameterizedTest
    @ValueSource(strings = {"minion", "master"})
    void readsSaltsPkcs1PrivateKeyAsBouncyCastleDoes(String name) throws Exception {
        String pem = SaltVectors.text("keys/" + name + ".pem");
        PrivateKey plain = PlainRsaPem.privateKey(pem).orElseThrow();
        PrivateKey bc = new JcaPEMKeyConverter().getPrivateKey(((PEMKeyPair) bouncyCastle(pem)).getPrivateKeyInfo());
        assertThat(plain.getEncoded()).isEqualTo(bc.getEncoded());
        assertThat(PlainRsaPem.pkcs1Of(plain.getEncoded()).orElseThrow())
                .isEqualTo(PrivateKeyInfo.getInstance(bc.getEncoded()).parsePrivateKey().toASN1Primitive().getEncoded("DER"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"minion", "master"})
    void readsSaltsSpkiPublicKeyAndItsPkcs1FormAsBouncyCastleDoes(String name) throws Exception {
        String pub = SaltVectors.text("keys/" + name + ".pub");
        PublicKey bc = new JcaPEMKeyConverter().getPublicKey((SubjectPublicKeyInfo) bouncyCastle(pub));
        assertThat(PlainRsaPem.publicKey(pub).orElseThrow().getEncoded()).isEqualTo(bc.getEncoded());
        byte[] pkcs1 = SubjectPublicKeyInfo.getInstance(bc.getEncoded()).parsePublicKey().getEncoded();
        assertThat(PlainRsaPem.publicKey(PemArmor.armor("RSA PUBLIC KEY", pkcs1)).orElseThrow().getEncoded())
                .isEqualTo(bc.getEncoded());
    }

    @Test
    void readsAnUnencryptedPkcs8PrivateKey() {
        PrivateKey key = PlainRsaPem.privateKey(SaltVectors.text("keys/master.pem")).orElseThrow();
        assertThat(PlainRsaPem.privateKey(PemArmor.armor("PRIVATE KEY", key.getEncoded())).orElseThrow().getEncoded())
                .isEqualTo(key.getEncoded());
    }

    @Test
    void leavesEverythingElseToTheBouncyCastlePath() {
        String pem = SaltVectors.text("keys/minion.pem");
        String pub = SaltVectors.text("keys/minion.pub");
        String body = pem.substring(pem.indexOf('\n') + 1, pem.lastIndexOf("\n-----END"));
        // an encrypted PKCS#1 key carries headers: never read as a plain one
        String encrypted = "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00112233445566778899AABBCCDDEEFF\n\n"
                + body + "\n-----END RSA PRIVATE KEY-----";
        assertThat(PlainRsaPem.privateKey(encrypted)).isEmpty();
        assertThat(PlainRsaPem.privateKey(pub)).isEmpty();
        assertThat(PlainRsaPem.publicKey(pem)).isEmpty();
        assertThat(PlainRsaPem.publicKey("hello")).isEmpty();
        assertThat(PlainRsaPem.publicKey(null)).isEmpty();
        assertThat(PlainRsaPem.publicKey(pub.replace("MIIB", "!!!!"))).isEmpty();
        assertThat(PlainRsaPem.publicKey(pub.substring(0, 200) + "\n-----END PUBLIC KEY-----")).isEmpty();
        assertThat(PlainRsaPem.privateKey(pem + "\n" + pem)).isEmpty();
        assertThat(PlainRsaPem.pkcs1Of(new byte[] {0x30, 0x03, 0x02, 0x01, 0x00})).isEmpty();
        assertThat(PlainRsaPem.pkcs1Of(new byte[] {0x30, (byte) 0x84, 0x7f, 0x7f, 0x7f, 0x7f})).isEmpty();
    }

    private static Object bouncyCastle(String pem) throws Exception {
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            return parser.readObject();
        }
    }
}
