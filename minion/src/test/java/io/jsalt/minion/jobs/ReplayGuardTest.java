package io.jsalt.minion.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.crypto.Crypticle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplayGuardTest {
    private final ReplayGuard guard = new ReplayGuard();
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

    @TempDir
    Path cachedir;

    @Test
    void refusesAJidSeenBeforeEvenWithAHigherSerial() {
        assertThat(guard.accept(key, 1L, "20260101120000000001")).isTrue();
        assertThat(guard.accept(key, 2L, "20260101120000000001")).isFalse();
        assertThat(guard.accept(key, 3L, "20260101120000000002")).isTrue();
    }

    @Test
    void aRestartedMinionStillRefusesAPublicationItRan() throws IOException {
        Path file = cachedir.resolve("seen_publications");
        new ReplayGuard(file).accept(key, 5L, "20260101120000000005");

        ReplayGuard restarted = new ReplayGuard(file);
        assertThat(restarted.accept(key, 5L, "20260101120000000005")).as("the same frame sent again").isFalse();
        assertThat(restarted.accept(key, 4L, "20260101120000000004")).as("an older frame of the same session").isFalse();
        assertThat(restarted.accept(key, 6L, "20260101120000000006")).isTrue();
        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.readString(file)).doesNotContain(key.keyString());
    }

    @Test
    void aNewSessionKeyRestartsTheCountButNotTheJids() {
        Path file = cachedir.resolve("seen_publications");
        new ReplayGuard(file).accept(key, 9L, "20260101120000000009");

        ReplayGuard restarted = new ReplayGuard(file);
        Crypticle rotated = new Crypticle(Crypticle.generateKeyString());
        assertThat(restarted.accept(rotated, 0L, "20260101120000000010")).isTrue();
        assertThat(restarted.accept(rotated, 1L, "20260101120000000009")).isFalse();
    }

    @Test
    void forgetsJidsOlderThanASessionAndStaysBoundedOnDisk() throws IOException {
        Path file = cachedir.resolve("seen_publications");
        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
        ReplayGuard g = new ReplayGuard(file, now::get);
        g.accept(key, 0L, "20260101000000000000");
        now.set(now.get().plus(ReplayGuard.KEEP).plusSeconds(1));
        for (int i = 1; i <= 3 * ReplayGuard.MAX_JIDS; i++) {
            assertThat(g.accept(key, (long) i, String.format("2026010200%010d", i))).isTrue();
        }

        ReplayGuard restarted = new ReplayGuard(file, now::get);
        assertThat(restarted.accept(key, 1_000_000L, "20260101000000000000")).as("forgotten after a day").isTrue();
        assertThat(restarted.accept(key, 1_000_001L, String.format("2026010200%010d", 3 * ReplayGuard.MAX_JIDS))).isFalse();
        assertThat(Files.readAllLines(file).size()).isLessThanOrEqualTo(2 * ReplayGuard.MAX_JIDS + 2);
    }

    @Test
    void anUnreadableFileStartsEmpty() throws IOException {
        Path file = cachedir.resolve("seen_publications");
        Files.writeString(file, "key zz\njob x y z\n\u0000garbage");
        assertThat(new ReplayGuard(file).accept(key, 0L, "20260101120000000000")).isTrue();
    }

    @Test
    void keepsTheCountOfEachMastersSessionKeyApart() {
        Crypticle other = new Crypticle(Crypticle.generateKeyString());
        assertThat(guard.accept(key, 5L)).isTrue();
        assertThat(guard.accept(other, 0L)).as("another master counts from 0").isTrue();

        assertThat(guard.accept(key, 5L)).as("switching back does not restart the first key's count").isFalse();
        assertThat(guard.accept(key, 6L)).isTrue();
        assertThat(guard.accept(other, 0L)).isFalse();
    }

    @Test
    void theSameJobFromASecondMasterIsSeenNotReplayed() {
        Crypticle other = new Crypticle(Crypticle.generateKeyString());
        assertThat(guard.judge(key, 1L, "20260101120000000001")).isEqualTo(ReplayGuard.Verdict.NEW);

        assertThat(guard.judge(other, 0L, "20260101120000000001")).isEqualTo(ReplayGuard.Verdict.SEEN);
        assertThat(guard.judge(key, 1L, "20260101120000000002")).isEqualTo(ReplayGuard.Verdict.REPLAYED);
    }

    @Test
    void aRestartedMinionOfTwoMastersKeepsBothCounts() throws IOException {
        Path file = cachedir.resolve("seen_publications");
        Crypticle other = new Crypticle(Crypticle.generateKeyString());
        ReplayGuard first = new ReplayGuard(file);
        first.accept(key, 7L, "20260101120000000007");
        first.accept(other, 3L, "20260101120000000003");
        first.accept(key, 8L, "20260101120000000008");

        ReplayGuard restarted = new ReplayGuard(file);
        assertThat(restarted.accept(key, 8L, "20260101120000000018")).isFalse();
        assertThat(restarted.accept(other, 3L, "20260101120000000013")).isFalse();
        assertThat(restarted.accept(other, 4L, "20260101120000000014")).isTrue();
    }

    @Test
    void compactingKeepsEveryKeysCount() throws IOException {
        Path file = cachedir.resolve("seen_publications");
        Crypticle other = new Crypticle(Crypticle.generateKeyString());
        ReplayGuard g = new ReplayGuard(file);
        g.accept(other, 50L, "20260101120000000050");
        for (int i = 1; i <= 2 * ReplayGuard.MAX_JIDS + 5; i++) {
            g.accept(key, (long) i, String.format("2026010200%010d", i));
        }

        ReplayGuard restarted = new ReplayGuard(file);
        assertThat(restarted.accept(other, 50L, "20260101120000000051")).isFalse();
        assertThat(restarted.accept(key, (long) 2 * ReplayGuard.MAX_JIDS + 5, "20260101120000000052")).isFalse();
        assertThat(restarted.accept(other, 51L, "20260101120000000053")).isTrue();
    }

    @Test
    void twoMastersOfOneSessionKeyCountTheirSerialsApart() {
        // the masters of a cluster share the session key, and each counts its own serials from 1
        assertThat(guard.judge(key, "m1:4506", 40L, "20260101120000000040")).isEqualTo(ReplayGuard.Verdict.NEW);
        assertThat(guard.judge(key, "m2:4506", 3L, "20260101120000000041")).isEqualTo(ReplayGuard.Verdict.NEW);

        assertThat(guard.judge(key, "m2:4506", 3L, "20260101120000000042")).isEqualTo(ReplayGuard.Verdict.REPLAYED);
        assertThat(guard.judge(key, "m1:4506", 39L, "20260101120000000043")).isEqualTo(ReplayGuard.Verdict.REPLAYED);
        assertThat(guard.judge(key, "m2:4506", 4L, "20260101120000000040")).as("m1's job, relayed by m2")
                .isEqualTo(ReplayGuard.Verdict.SEEN);
    }
}
