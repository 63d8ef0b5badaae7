package io.jsalt.master.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class JidsTest {
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSSSSS");

    @Test
    void aJidIsTheUtcTimeWithMicrosecondsIn20Digits() {
        LocalDateTime before = LocalDateTime.now(ZoneOffset.UTC).minusSeconds(1);
        String jid = new Jids().next();
        LocalDateTime after = LocalDateTime.now(ZoneOffset.UTC).plusSeconds(1);

        assertThat(jid).matches("[0-9]{20}");
        LocalDateTime at = LocalDateTime.parse(jid, FORMAT);
        assertThat(at).isAfter(before).isBefore(after);
    }

    @Test
    void aHundredThousandJidsInATightLoopAreUniqueIncreasingAnd20DigitsLong() {
        Jids jids = new Jids();
        String previous = "";
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            String jid = jids.next();
            assertThat(jid.length()).isEqualTo(20);
            assertThat(jid.compareTo(previous)).as("jid %s after %s", jid, previous).isPositive();
            seen.add(jid);
            previous = jid;
        }
        assertThat(seen).hasSize(100_000);
        assertThat(previous).matches("[0-9]{20}");
        // the ids borrowed from the future stay close to the clock
        LocalDateTime last = LocalDateTime.parse(previous, FORMAT);
        assertThat(Duration.between(LocalDateTime.now(ZoneOffset.UTC), last)).isLessThan(Duration.ofSeconds(1));
    }

    @Test
    void threadsSharingOneJidsNeverGetTheSameJid() throws InterruptedException {
        Jids jids = new Jids();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 10_000; i++) {
                    seen.add(jids.next());
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join(10_000);
        }
        assertThat(seen).hasSize(40_000);
    }

    @Test
    void validatesJids() {
        assertThat(Jids.isValid("20260101120000123456")).isTrue();
        assertThat(Jids.isValid(new Jids().next())).isTrue();
        assertThat(Jids.isValid(null)).isFalse();
        assertThat(Jids.isValid("")).isFalse();
        assertThat(Jids.isValid("req")).isFalse();
        assertThat(Jids.isValid("2026010112000012345")).isFalse();
        assertThat(Jids.isValid("202601011200001234567")).isFalse();
        assertThat(Jids.isValid("2026010112000012345a")).isFalse();
        assertThat(Jids.isValid("2026010112000012345\n")).isFalse();
        assertThat(Jids.isValid("٢٠٢٦٠١٠١١٢٠٠٠٠١٢٣٤٥٦")).isFalse();
    }
}
