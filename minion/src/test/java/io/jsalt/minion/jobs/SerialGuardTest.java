package io.jsalt.minion.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.crypto.Crypticle;
import org.junit.jupiter.api.Test;

class SerialGuardTest {
    private final SerialGuard guard = new SerialGuard();
    private final Crypticle key = new Crypticle(Crypticle.generateKeyString());

    @Test
    void acceptsIncreasingSerialsStartingAtZero() {
        assertThat(guard.accept(key, 0L)).isTrue();
        assertThat(guard.accept(key, 1L)).isTrue();
        assertThat(guard.accept(key, 7L)).as("gaps are fine: other minions' jobs use serials too").isTrue();
    }

    @Test
    void refusesARepeatedSerial() {
        assertThat(guard.accept(key, 4L)).isTrue();

        assertThat(guard.accept(key, 4L)).isFalse();
    }

    @Test
    void refusesALowerSerial() {
        guard.accept(key, 10L);

        assertThat(guard.accept(key, 9L)).isFalse();
        assertThat(guard.accept(key, 0L)).isFalse();
    }

    @Test
    void aRefusedSerialDoesNotMoveTheCount() {
        guard.accept(key, 10L);
        guard.accept(key, 3L);

        assertThat(guard.accept(key, 11L)).isTrue();
    }

    @Test
    void refusesAMissingSerial() {
        assertThat(guard.accept(key, null)).isFalse();
    }

    @Test
    void refusesASerialThatIsNotANumber() {
        assertThat(guard.accept(key, "5")).isFalse();
    }

    @Test
    void acceptsSerialsDecodedAsInteger() {
        assertThat(guard.accept(key, 1)).isTrue();
        assertThat(guard.accept(key, 1L)).isFalse();
        assertThat(guard.accept(key, 2)).isTrue();
    }

    @Test
    void restartsTheCountWhenTheSessionKeyChanges() {
        guard.accept(key, 500L);
        Crypticle rotated = new Crypticle(Crypticle.generateKeyString());

        assertThat(guard.accept(rotated, 0L)).as("the master restarts serials at 0 with a new key").isTrue();
        assertThat(guard.accept(rotated, 0L)).isFalse();
    }

    @Test
    void keepsTheCountForTheSameKeyStringInAnotherCrypticle() {
        guard.accept(key, 5L);

        assertThat(guard.accept(new Crypticle(key.keyString()), 5L)).isFalse();
        assertThat(guard.accept(new Crypticle(key.keyString()), 6L)).isTrue();
    }
}
