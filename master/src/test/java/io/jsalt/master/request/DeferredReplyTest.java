package io.jsalt.master.request;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.master.data.MinionDataCache;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.jobs.JobCacheException;
import io.jsalt.master.jobs.SqliteJobCache;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.session.SessionKey;
import io.jsalt.master.support.TestKeys;
import io.jsalt.master.targeting.TargetResolver;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.message.ReturnLoad;
import io.jsalt.transport.message.SessionCipher;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A return's reply after its row's commit, the MWorker not waiting for it: through the dispatcher (the reply goes
 * out when the work says so, from whichever thread; a failure gets the empty error reply), and a real return on
 * the SQLite job cache (row, then event, then reply; a duplicate answered and not fired; a failed write answered
 * with the error and not fired).
 */
class DeferredReplyTest {
    private static final String JID = "20260101120000123456";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path pki;
    @TempDir
    Path cachedir;
    final SessionKey session = new SessionKey();
    final SessionCipher cipher = new SessionCipher(session.crypticle());
    final KeyPair web1 = TestKeys.minion(1);
    /** What happened, in order: "row" when the event saw the row stored, "event ...", "reply". */
    final List<String> seen = new CopyOnWriteArrayList<>();
    SqliteJobCache jobs;
    ReturnHandler returns;

    @BeforeEach
    void setUp() {
        KeyStore keys = new KeyStore(pki);
        keys.store(KeyState.ACCEPTED, "web1", TestKeys.pem(web1));
        jobs = SqliteJobCache.open(cachedir);
        jobs.saveJob(new Job(JID, "test.ping", List.of(), "web1", "glob", "root", List.of("web1"), Instant.now()));
        EventBus bus = new EventBus();
        bus.addListener(event -> {
            String id = String.valueOf(event.data().get("id"));
            seen.add(jobs.hasReturn(JID, id) ? "event, row stored" : "event, row NOT stored");
        });
        returns = new ReturnHandler(keys, jobs, bus, new Jids(), new MinionTrust(keys, () -> true),
                new TargetResolver(keys, new MinionDataCache(), Map.of()));
    }

    @AfterEach
    void tearDown() {
        jobs.close();
    }

    @Test
    void aDeferredAnswerIsSentOnlyWhenItsWorkSucceedsFromTheThreadThatSaysSo() throws Exception {
        AtomicReference<DeferredReply.Outcome> pending = new AtomicReference<>();
        RequestDispatcher dispatcher = new RequestDispatcher(session, Map.of(),
                Map.of("_later", (load, nonce) -> new DeferredReply(Map.of("done", load.get("n")), pending::set)));
        String nonce = SessionCipher.newNonce();
        CompletableFuture<byte[]> reply = new CompletableFuture<>();

        dispatcher.handle(cipher.encryptRequest(Map.of("cmd", "_later", "n", 1), nonce), reply::complete);

        assertThat(pending.get()).as("the work was started").isNotNull();
        assertThat(reply).as("no reply before the work is done").isNotDone();
        Thread other = new Thread(() -> pending.get().succeeded(), "writer-like");
        other.start();
        assertThat(cipher.decryptReply(reply.get(30, TimeUnit.SECONDS), nonce)).isEqualTo(Map.of("done", 1L));
        other.join(WAIT.toMillis());
    }

    @Test
    void aDeferredAnswerWhoseWorkFailedGetsTheEmptyErrorReply() throws Exception {
        RequestDispatcher dispatcher = new RequestDispatcher(session, Map.of(), Map.of("_later",
                (load, nonce) -> new DeferredReply(true, outcome -> outcome.failed(new JobCacheException("disk full")))));
        CompletableFuture<byte[]> reply = new CompletableFuture<>();

        dispatcher.handle(cipher.encryptRequest(Map.of("cmd", "_later"), SessionCipher.newNonce()), reply::complete);

        assertThat(reply.get(30, TimeUnit.SECONDS)).isEmpty();
    }

    @Test
    void aReturnIsRepliedToAfterItsRowCommittedAndItsEventFired() throws Exception {
        Object result = returns.handle(load("web1"), null);

        assertThat(result).isInstanceOf(DeferredReply.class);
        assertThat(jobs.hasReturn(JID, "web1")).as("nothing stored until the worker hands it over").isFalse();
        assertThat(outcomeOf((DeferredReply) result).get(30, TimeUnit.SECONDS)).isEqualTo("succeeded");
        assertThat(seen).containsExactly("event, row stored", "reply");
        assertThat(jobs.returns(JID)).singleElement().satisfies(r -> assertThat(r.ret()).isEqualTo("pong"));
    }

    @Test
    void aSecondReturnOfTheSameMinionIsAnsweredTrueAndNotFiredAgain() throws Exception {
        assertThat(outcomeOf((DeferredReply) returns.handle(load("web1"), null)).get(30, TimeUnit.SECONDS)).isEqualTo("succeeded");
        DeferredReply again = (DeferredReply) returns.handle(load("web1"), null);

        assertThat(again.answer()).isEqualTo(true);
        assertThat(outcomeOf(again).get(30, TimeUnit.SECONDS)).isEqualTo("succeeded");
        assertThat(seen).containsExactly("event, row stored", "reply", "reply");
        assertThat(jobs.returns(JID)).hasSize(1);
    }

    @Test
    void aReturnTheJobCacheCannotStoreGetsTheFailureAndNoEvent() throws Exception {
        DeferredReply deferred = (DeferredReply) returns.handle(load("web1"), null);
        jobs.close();

        assertThat(outcomeOf(deferred).get(30, TimeUnit.SECONDS)).startsWith("failed: ").contains("closed");
        assertThat(seen).containsExactly("reply");
    }

    /** Starts the work as the dispatcher does; what it heard, "reply" noted in {@link #seen} when it did. */
    private CompletableFuture<String> outcomeOf(DeferredReply deferred) {
        CompletableFuture<String> out = new CompletableFuture<>();
        deferred.start().accept(new DeferredReply.Outcome() {
            @Override
            public void succeeded() {
                seen.add("reply");
                out.complete("succeeded");
            }

            @Override
            public void failed(RuntimeException e) {
                seen.add("reply");
                out.complete("failed: " + e.getMessage());
            }
        });
        return out;
    }

    private Map<String, Object> load(String id) {
        Map<String, Object> load = new ReturnLoad(id, JID, "test.ping", List.of(), "pong", 0, true).toSignedLoad(web1.getPrivate());
        return Wire.asMap(SaltPack.unpack(SaltPack.pack(load)));
    }
}
