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
import java.util.TreeSet;
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
    void twoMastersWithSlotsOfTheirOwnNeverMakeTheSameJidEvenInTheSameMicrosecond() {
        Jids m1 = new Jids();
        Jids m2 = new Jids();
        m1.useSlot(3, 16);
        m2.useSlot(4, 16);
        List<String> one = new ArrayList<>();
        List<String> two = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            one.add(m1.next());
            two.add(m2.next());
        }
        assertThat(residues(one)).containsExactly(3L);
        assertThat(residues(two)).containsExactly(4L);
        assertThat(increasing(one)).isTrue();
        assertThat(increasing(two)).isTrue();
        Set<String> both = new HashSet<>(one);
        both.retainAll(new HashSet<>(two)); // a set: retainAll asks contains() of each
        assertThat(both).isEmpty();
        // still Salt's jid: the UTC time, to within the slots' 16 microseconds
        LocalDateTime at = LocalDateTime.parse(m1.next(), FORMAT);
        assertThat(Duration.between(LocalDateTime.now(ZoneOffset.UTC), at).abs()).isLessThan(Duration.ofSeconds(2));
    }

    private static boolean increasing(List<String> jids) {
        for (int i = 1; i < jids.size(); i++) {
            if (jids.get(i).compareTo(jids.get(i - 1)) <= 0) {
                return false;
            }
        }
        return true;
    }

    private static Set<Long> residues(List<String> jids) {
        Set<Long> out = new TreeSet<>();
        jids.forEach(j -> out.add(Long.parseLong(j.substring(14)) % 16));
        return out;
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
