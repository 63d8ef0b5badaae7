package io.jsalt.master.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.jsalt.config.EauthBackendOptions;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A slow or hung eauth backend (LDAP, PAM) is asked off the MWorkers, with a bound, and its answers remembered. */
class SlowBackendTest {
    private final TokenFilesTest.HandClock clock = new TokenFilesTest.HandClock();

    @Test
    void aDirectoryThatDoesNotAnswerDoesNotCostEveryTokenUseFiveSeconds() throws Exception {
        List<Socket> held = new CopyOnWriteArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        held.add(silent.accept()); // accepts, never answers (a hung slapd, a black-holing firewall)
                    }
                } catch (Exception e) {
                    // closed
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            EauthBackendOptions.Ldap ldap = new EauthBackendOptions.Ldap("", "127.0.0.1", silent.getLocalPort(), false, false, false,
                    "dc=example,dc=org", "cn=search,dc=example,dc=org", "pw", "uid={{ username }}", 2, "Groups", "posixGroup",
                    "memberUid", "memberOf");
            TokenFiles tokens = new TokenFiles(java.nio.file.Files.createTempDirectory("tok"), java.time.Clock.systemUTC(), () -> 3600);
            EauthToken t = tokens.create("alice", "ldap");
            Eauth eauth = new Eauth(EauthSettings.fixed(Map.of("ldap", Map.of("alice", List.of("test.ping"))), 3600,
                    new EauthBackendOptions("login", ldap)), tokens);
            long start = System.nanoTime();
            Eauth.Caller caller = eauth.caller(Map.of("token", t.token())); // what every API call, every event_access, every stream refresh does
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertThat(ms).as("one token check on an MWorker").isLessThan(1000);
            assertThat(caller.name()).as("an unreachable directory keeps the token, as before").isEqualTo("alice");
            // the directory is still being asked (once), not again for each use
            assertThat(eauth.caller(Map.of("token", t.token())).name()).isEqualTo("alice");
            await().atMost(Duration.ofSeconds(5)).until(() -> held.size() >= 1);
            assertThat(held).hasSize(1);
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    @Test
    void theAnswerIsRememberedForAWhileAndAskedOnceAtATime() {
        KnownUsers known = new KnownUsers(new BackendCalls(), clock);
        AtomicInteger asked = new AtomicInteger();
        AtomicBoolean exists = new AtomicBoolean(true);
        assertThat(known.stillKnown("ldap", "ann", () -> asked.incrementAndGet() > 0 && exists.get())).isTrue();
        exists.set(false); // deleted from the directory
        assertThat(known.stillKnown("ldap", "ann", () -> asked.incrementAndGet() > 0 && exists.get())).isTrue();
        assertThat(asked).hasValue(1);
        clock.millis.addAndGet(KnownUsers.FRESH.toMillis());
        assertThat(known.stillKnown("ldap", "ann", () -> asked.incrementAndGet() > 0 && exists.get())).isFalse();
        assertThat(asked).hasValue(2);
        assertThat(known.stillKnown("pam", "ann", () -> asked.incrementAndGet() > 0)).as("per backend").isTrue();
    }

    @Test
    void aLateAnswerKeepsTheTokenMeanwhileAndCountsWhenItComes() throws Exception {
        KnownUsers known = new KnownUsers(new BackendCalls(), clock);
        CountDownLatch directory = new CountDownLatch(1);
        AtomicInteger asked = new AtomicInteger();
        java.util.function.BooleanSupplier hung = () -> {
            asked.incrementAndGet();
            try {
                directory.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return false;
        };
        assertThat(known.stillKnown("ldap", "bob", hung)).as("no answer yet: kept").isTrue();
        assertThat(known.stillKnown("ldap", "bob", hung)).isTrue();
        assertThat(asked).as("one question in flight per user").hasValue(1);
        directory.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> !known.stillKnown("ldap", "bob", hung));
        assertThat(asked).hasValue(1);
    }

    @Test
    void aCallPastItsTimeOrPastTheBoundIsRefusedClearly() throws Exception {
        BackendCalls calls = new BackendCalls();
        CountDownLatch release = new CountDownLatch(1);
        try {
            assertThatThrownBy(() -> calls.call("the ldap backend", () -> release.await(10, TimeUnit.SECONDS), Duration.ofMillis(50)))
                    .isInstanceOf(EauthException.class).hasMessageContaining("the ldap backend did not answer");
            // one thread still held by the call above: fill the rest and the queue
            for (int i = 1; i < BackendCalls.THREADS + BackendCalls.QUEUE; i++) {
                calls.start(() -> release.await(10, TimeUnit.SECONDS));
            }
            CompletableFuture<Boolean> refused = calls.start(() -> true);
            assertThat(refused).isCompletedExceptionally();
            assertThatThrownBy(() -> calls.call("the pam backend", () -> true, Duration.ofSeconds(5)))
                    .isInstanceOf(EauthException.class).hasMessageContaining("busy");
        } finally {
            release.countDown();
        }
        // once the held calls have ended (their threads finish just after the release), calls are served again
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
                .until(() -> "yes".equals(calls.call("the pam backend", () -> "yes", Duration.ofSeconds(5))));
    }
}
