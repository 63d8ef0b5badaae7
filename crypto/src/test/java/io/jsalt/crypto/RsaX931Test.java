package io.jsalt.crypto;

import static io.jsalt.crypto.SaltVectors.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RsaX931Test {
    private static final String VECTORS = SaltVectors.text("known-answer/a-x931-private-encrypt.json");
    private static final List<String> OUTPUTS = SaltVectors.strings(VECTORS, "output_hex");
    private static final List<String> MESSAGES = SaltVectors.strings(VECTORS, "message_utf8");
    private static final PrivateKey MINION = RsaKeys.parsePrivateKey(SaltVectors.text("keys/minion.pem"));
    private static final PrivateKey MASTER = RsaKeys.parsePrivateKey(SaltVectors.text("keys/master.pem"));
    private static final PublicKey MINION_PUB = RsaKeys.parsePublicKey(SaltVectors.text("keys/minion.pub"));
    private static final PublicKey MASTER_PUB = RsaKeys.parsePublicKey(SaltVectors.text("keys/master.pub"));

    @Test
    void minionTokOverSaltMatchesSaltByteForByte() {
        assertThat(MESSAGES.get(0)).isEqualTo("salt");
        byte[] tok = Rsa.x931PrivateEncrypt(MINION, "salt".getBytes(StandardCharsets.US_ASCII));
        assertThat(tok).isEqualTo(hex(OUTPUTS.get(0)));
    }

    @Test
    void masterSignatureOverDigestHexMatchesSaltByteForByte() {
        byte[] sig = Rsa.x931PrivateEncrypt(MASTER, MESSAGES.get(1).getBytes(StandardCharsets.US_ASCII));
        assertThat(sig).isEqualTo(hex(OUTPUTS.get(1)));
    }

    @Test
    void publicDecryptRecoversBothSaltMessages() {
        assertThat(Rsa.x931PublicDecrypt(MINION_PUB, hex(OUTPUTS.get(0))))
                .isEqualTo("salt".getBytes(StandardCharsets.US_ASCII));
        assertThat(Rsa.x931PublicDecrypt(MASTER_PUB, hex(OUTPUTS.get(1))))
                .isEqualTo(MESSAGES.get(1).getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void authReplySigRecoversSha256HexOfTheSessionKey() throws Exception {
        String frame = SaltVectors.text("frames/run1-auto-accept/002-master-to-minion-auth-reply-accepted.json");
        String sessionKey = SaltVectors.string(frame, "session_key");
        // the first "sig" is the envelope's PKCS#1 signature; the X9.31 one sits inside the decoded load
        int load = frame.indexOf("\"load_msgpack_decoded\"");
        byte[] sig = Base64.getDecoder().decode(SaltVectors.b64(frame.substring(load), "sig"));
        String digestHex = HexFormat.of().formatHex(
                MessageDigest.getInstance("SHA-256").digest(sessionKey.getBytes(StandardCharsets.US_ASCII)));

        assertThat(new String(Rsa.x931PublicDecrypt(MASTER_PUB, sig), StandardCharsets.US_ASCII))
                .isEqualTo(digestHex)
                .isEqualTo(SaltVectors.string(frame, "expected"));
    }

    @Test
    void publicDecryptWithAnotherKeyFailsOnThePadding() {
        assertThatThrownBy(() -> Rsa.x931PublicDecrypt(MASTER_PUB, hex(OUTPUTS.get(0))))
                .isInstanceOf(CryptoException.class);
    }

    @Test
    void publicDecryptRejectsASignatureOfTheWrongLength() {
        byte[] truncated = Arrays.copyOf(hex(OUTPUTS.get(0)), 255);
        assertThatThrownBy(() -> Rsa.x931PublicDecrypt(MINION_PUB, truncated)).isInstanceOf(CryptoException.class);
    }

    /** 254 bytes leave room for a one-byte pad (0x6A), 253 for 0x6B 0xBA with no fill, 0 for the longest fill. */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 20, 64, 200, 253, 254})
    void privateEncryptRoundTripsEveryMessageLength(int length) {
        byte[] msg = new byte[length];
        for (int i = 0; i < length; i++) {
            msg[i] = (byte) (i * 31 + 7);
        }
        byte[] sig = Rsa.x931PrivateEncrypt(MINION, msg);
        assertThat(sig).hasSize(256);
        assertThat(Rsa.x931PublicDecrypt(MINION_PUB, sig)).isEqualTo(msg);
    }

    @Test
    void paddingOfTheLongestMessageIsTheSingleByte6A() {
        byte[] block = X931Padding.pad(new byte[254], 256);
        assertThat(block[0] & 0xFF).isEqualTo(0x6A);
        assertThat(block[255] & 0xFF).isEqualTo(0xCC);
    }

    @Test
    void paddingFillsWithBbBetween6bAndBa() {
        byte[] block = X931Padding.pad(new byte[] {1, 2}, 8);
        assertThat(block).isEqualTo(new byte[] {0x6B, (byte) 0xBB, (byte) 0xBB, (byte) 0xBB, (byte) 0xBA, 1, 2,
            (byte) 0xCC});
    }

    @Test
    void unpadRejectsAWrongFillByte() {
        byte[] block = X931Padding.pad(new byte[] {1, 2}, 8);
        block[2] = 0x00;
        assertThatThrownBy(() -> X931Padding.unpad(block)).isInstanceOf(CryptoException.class);
    }

    @Test
    void privateEncryptRefusesAMessageTooLongForTheModulus() {
        assertThatThrownBy(() -> Rsa.x931PrivateEncrypt(MINION, new byte[255]))
                .isInstanceOf(CryptoException.class);
    }
}
