package io.jsalt.master.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.crypto.CryptoException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class SessionKeyTest {

    @Test
    void theKeyStringIsSaltsBase64Of56RandomBytes() {
        String key = new SessionKey().keyString();
        assertThat(key).hasSize(76);
        assertThat(Base64.getDecoder().decode(key)).hasSize(56);
    }

    @Test
    void twoMastersNeverShareAKey() {
        assertThat(new SessionKey().keyString()).isNotEqualTo(new SessionKey().keyString());
    }

    @Test
    void theCrypticleUsesTheAdvertisedKey() {
        SessionKey session = new SessionKey();
        byte[] sealed = session.crypticle().seal("hello".getBytes(StandardCharsets.US_ASCII), null);
        assertThat(new io.jsalt.crypto.Crypticle(session.keyString()).open(sealed, null)).asString().isEqualTo("hello");
    }

    @Test
    void serialsStartAtOneAndIncrease() {
        SessionKey session = new SessionKey();
        assertThat(session.nextSerial()).isEqualTo(1);
        assertThat(session.nextSerial()).isEqualTo(2);
        assertThat(session.nextSerial()).isEqualTo(3);
    }

    @Test
    void rotationChangesTheKeyAndRestartsTheSerial() {
        SessionKey session = new SessionKey();
        String before = session.keyString();
        byte[] sealedBefore = session.crypticle().seal(new byte[] {1, 2, 3}, null);
        session.nextSerial();
        session.nextSerial();

        session.rotate("test");

        assertThat(session.keyString()).isNotEqualTo(before);
        assertThat(session.nextSerial()).isEqualTo(1);
        assertThatThrownBy(() -> session.crypticle().open(sealedBefore, null)).isInstanceOf(CryptoException.class);
    }
}
