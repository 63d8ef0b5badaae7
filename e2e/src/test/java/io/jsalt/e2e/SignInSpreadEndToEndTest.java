package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import io.jsalt.config.MinionConfig;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.minion.Minion;
import io.jsalt.transport.Transport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * 200 minions in this JVM (sharing one transport, as the benchmark runs them) against a real master
 * process whose keys are pre-accepted. The master is killed with SIGKILL and started again: the minions
 * must come back by themselves, spread over random_reauth_delay instead of all at once.
 *
 * <p>The measure: when each minion sent its sign-in request after the restart (the load offered to the
 * master; completed sign-ins cannot show a spike, as the master's own pace spreads them). With
 * random_reauth_delay 10 s, 200 minions average 2 requests per 100 ms, so no more than
 * {@value #MAX_PER_100_MS} in any 100 ms window (without the delay, most of the fleet asks within one
 * window of the publish port coming back), and the middle 80 % of them span at least
 * {@value #MIN_SPREAD_SECONDS} s.
 */
class SignInSpreadEndToEndTest {
    private static final int MINIONS = 200;
    private static final int RANDOM_REAUTH_DELAY = 10;
    private static final int MAX_PER_100_MS = 20;
    private static final int MIN_SPREAD_SECONDS = 4;

    @Test
    void aMasterRestartBringsTwoHundredMinionsBackSpreadOverTheReauthWindow(@TempDir Path tmp) throws Exception {
        ch.qos.logback.classic.Logger minionLogs = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger("io.jsalt.minion");
        Level before = minionLogs.getLevel();
        minionLogs.setLevel(Level.valueOf(System.getProperty("e2e.minionLogLevel", "ERROR"))); // 200 minions each saying "lost the master" is not worth reading
        List<Minion> minions = new ArrayList<>();
        try (Cluster cluster = new Cluster(tmp); Transport transport = Transport.create()) {
            cluster.withFullJitMaster().startMaster();
            preAccept(cluster);
            for (int i = 0; i < MINIONS; i++) {
                minions.add(new Minion(config(cluster, id(i)), transport));
            }
            try (EventTap bus = EventTap.connect(cluster.masterSockDir(), Duration.ofSeconds(10))) {
                minions.forEach(Minion::start);
                // settled: every minion signed in and announced itself, so nothing it sends meets the next master
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                        assertThat(minions).filteredOn(m -> m.signIns() < 1).extracting(m -> m.id() + " " + m.state()).isEmpty());
                await().atMost(Duration.ofSeconds(60)).until(() ->
                        bus.matching(e -> e.tag().matches("salt/minion/m[0-9]{3}/start")).size() == MINIONS);

                cluster.killMaster();
                cluster.restartMaster();
                await().atMost(Duration.ofSeconds(40)).untilAsserted(() ->
                        assertThat(minions).filteredOn(m -> m.signIns() < 2).extracting(m -> m.id() + " " + m.state()).isEmpty());

                List<Instant> asked = minions.stream().map(Minion::signInAskedAt).sorted().toList();
                List<Instant> done = minions.stream().map(Minion::signedInAt).sorted().toList();
                System.out.printf("sign-in requests after the restart: %d in the busiest 100 ms, middle 80%% over %d ms; "
                        + "sign-ins done: %d in the busiest 100 ms, all within %d ms%n", busiestWindow(asked, Duration.ofMillis(100)),
                        Duration.between(asked.get(MINIONS / 10), asked.get(MINIONS * 9 / 10)).toMillis(),
                        busiestWindow(done, Duration.ofMillis(100)), Duration.between(done.get(0), done.get(MINIONS - 1)).toMillis());
                assertThat(busiestWindow(asked, Duration.ofMillis(100))).as("sign-in requests in the busiest 100 ms")
                        .isLessThanOrEqualTo(MAX_PER_100_MS);
                assertThat(Duration.between(asked.get(MINIONS / 10), asked.get(MINIONS * 9 / 10)))
                        .as("span of the middle 80%% of sign-in requests").isGreaterThanOrEqualTo(Duration.ofSeconds(MIN_SPREAD_SECONDS));

                Cluster.Result ping = cluster.jsalt("-t", "20", "--out", "json", "--static", "*", "test.ping");
                assertThat(ping.exitCode()).as(ping.stderr()).isZero();
                assertThat(ping.stdout().split("\": true", -1)).as("every minion answers").hasSize(MINIONS + 1);
            } finally {
                closeAll(minions);
            }
        } finally {
            minionLogs.setLevel(before);
        }
    }

    /** Closes the minions side by side: each may wait for a request in flight. */
    private static void closeAll(List<Minion> minions) throws InterruptedException {
        List<Thread> closers = minions.stream().map(m -> new Thread(m::close, "close-" + m.id())).toList();
        closers.forEach(Thread::start);
        for (Thread t : closers) {
            t.join(30_000);
        }
    }

    private static String id(int i) {
        return String.format("m%03d", i);
    }

    /** One key for every minion (200 RSA key generations would take most of the time budget), accepted on the master. */
    private static void preAccept(Cluster cluster) throws Exception {
        Path first = cluster.minionPki(id(0));
        KeyPair key = RsaKeys.loadOrCreate(first, "minion");
        String pem = RsaKeys.publicKeyPem(key.getPublic());
        KeyStore keys = new KeyStore(cluster.masterPki());
        for (int i = 0; i < MINIONS; i++) {
            Path pki = cluster.minionPki(id(i));
            if (i > 0) {
                Files.createDirectories(pki, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                Files.copy(first.resolve("minion.pem"), pki.resolve("minion.pem"), StandardCopyOption.COPY_ATTRIBUTES);
                Files.copy(first.resolve("minion.pub"), pki.resolve("minion.pub"), StandardCopyOption.COPY_ATTRIBUTES);
            }
            keys.store(KeyState.ACCEPTED, id(i), pem);
        }
    }

    private static MinionConfig config(Cluster cluster, String id) {
        return MinionConfig.builder(cluster.root).id(id).master("127.0.0.1").masterPort(cluster.retPort)
                .publishPort(cluster.publishPort).pkiDir("/etc/jsalt/pki/" + id).cachedir("/var/cache/jsalt/" + id)
                .authTimeout(20).randomReauthDelay(RANDOM_REAUTH_DELAY).build(); // a busy master queues 200 sign-ins: wait, do not pile up retries
    }

    /** The most instants that fall within any window of the given length (instants sorted). */
    static int busiestWindow(List<Instant> sorted, Duration window) {
        int best = 0;
        int start = 0;
        for (int end = 0; end < sorted.size(); end++) {
            while (Duration.between(sorted.get(start), sorted.get(end)).compareTo(window) >= 0) {
                start++;
            }
            best = Math.max(best, end - start + 1);
        }
        return best;
    }
}
