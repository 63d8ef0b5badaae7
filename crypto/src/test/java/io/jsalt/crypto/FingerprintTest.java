package io.jsalt.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class FingerprintTest {
    private static final String VECTORS = SaltVectors.text("known-answer/d-pem-finger.json");

    @ParameterizedTest
    @ValueSource(strings = {"master.pub", "minion.pub", "master.pem", "minion.pem"})
    void sha256AndMd5MatchSaltKeyForEveryKeyFile(String file) {
        String pem = SaltVectors.text("keys/" + file);
        assertThat(Fingerprint.sha256(pem)).isEqualTo(expected(file, "sha256"));
        assertThat(Fingerprint.md5(pem)).isEqualTo(expected(file, "md5"));
    }

    @Test
    void blankLinesAndATrailingNewlineDoNotChangeTheFingerprint() {
        String pem = SaltVectors.text("keys/minion.pub");
        String padded = "\n" + pem.replaceFirst("\n", "\n\n") + "\n\n";
        assertThat(Fingerprint.sha256(padded)).isEqualTo(expected("minion.pub", "sha256"));
    }

    @Test
    void textWithoutPemArmorIsRefused() {
        assertThatThrownBy(() -> Fingerprint.sha256("hello")).isInstanceOf(CryptoException.class);
    }

    private static String expected(String file, String algorithm) {
        Matcher block = Pattern.compile("\"" + Pattern.quote(file) + "\"\\s*:\\s*\\{([^}]*)\\}").matcher(VECTORS);
        assertThat(block.find()).as("vector for %s", file).isTrue();
        return SaltVectors.string(block.group(1), algorithm);
    }
}
