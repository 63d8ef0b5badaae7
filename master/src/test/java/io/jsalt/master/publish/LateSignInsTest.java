package io.jsalt.master.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.master.data.MinionDataCache;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.JobReturn;
import io.jsalt.master.jobs.MemoryJobCache;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.session.SessionKey;
import io.jsalt.master.support.TestKeys;
import io.jsalt.master.targeting.TargetResolver;
import io.jsalt.transport.PublishServer;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import io.jsalt.transport.message.Publication;
import io.jsalt.transport.message.Topics;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Jobs in flight sent again to a minion that signs in, over a real publish port to a real subscription. */
class LateSignInsTest {
    private static final Duration WINDOW = Duration.ofSeconds(20);

    @TempDir
    Path root;

    private final KeyPair master = TestKeys.master();
    private final SessionKey session = new SessionKey();
    private final MemoryJobCache jobs = new MemoryJobCache();
    private final EventBus bus = new EventBus();
    private final Jids jids = new Jids();
    private final List<Subscription> subscriptions = new ArrayList<>();
    private Transport transport;
    private PublishServer server;
    private TargetResolver targets;
    private LateSignIns lateSignIns;

    @BeforeEach
    void setUp() {
        KeyStore keys = new KeyStore(root.resolve("pki"));
        String pem = TestKeys.pem(TestKeys.minion(0));
        for (String id : List.of("late", "other")) {
            keys.store(KeyState.ACCEPTED, id, pem);
        }
        keys.store(KeyState.PENDING, "waiting", pem);
        targets = new TargetResolver(keys, new MinionDataCache(), Map.of());
        transport = Transport.create();
        server = transport.bindPublisher("127.0.0.1", 0);
    }

    private void start(boolean zmqFiltering, Duration subscribeWait) {
        JobPublisher publisher = new JobPublisher(server, session, master.getPrivate(), zmqFiltering);
        lateSignIns = new LateSignIns(jobs, targets, publisher, server::subscribedTopics, () -> WINDOW, subscribeWait,
                Clock.systemUTC());
        bus.addListener(lateSignIns);
    }

    @AfterEach
    void tearDown() {
        if (lateSignIns != null) {
            lateSignIns.close();
        }
        subscriptions.forEach(Subscription::close);
        server.close();
        transport.close();
        jobs.close();
    }

    private String job(Instant started, Object tgt, String tgtType, List<String> minions) {
        String jid = started == null ? jids.next() : Jids.at(started);
        jobs.saveJob(new Job(jid, "test.arg", List.of("x"), tgt, tgtType, "root", minions, Instant.now()));
        return jid;
    }

    private void signIn(String id) {
        bus.fire("salt/auth", Map.of("result", true, "act", "accept", "id", id, "pub", "..."));
    }

    /** What a jsalt minion subscribes to: everything, and its presence topic (or, under zmq_filtering, its own). */
    private BlockingQueue<Map<String, Object>> subscribeAs(String id, boolean zmqFiltering) {
        BlockingQueue<Map<String, Object>> received = new LinkedBlockingQueue<>();
        List<byte[]> topics = zmqFiltering ? List.of(Topics.BROADCAST, Topics.ofMinion(id)) : List.of(new byte[0], Topics.presenceOf(id));
        subscriptions.add(transport.subscribe("127.0.0.1", server.port(), topics,
                frame -> received.add(Publication.decode(frame, session.crypticle(), master.getPublic(), true))));
        return received;
    }

    private static Map<String, Object> next(BlockingQueue<Map<String, Object>> received) throws InterruptedException {
        Map<String, Object> load = received.poll(10, TimeUnit.SECONDS);
        assertThat(load).as("a publication within 10 s").isNotNull();
        return load;
    }

    @Test
    void aMinionThatSignsInGetsTheJobsInFlightForItAloneOnceItListens() throws Exception {
        start(false, Duration.ofSeconds(30));
        String due = job(null, "*", "glob", List.of("late", "other"));
        jobs.saveReturn(new JobReturn(due, "other", "x", 0, true, Instant.now()));
        job(Instant.now().minus(Duration.ofHours(1)), "*", "glob", List.of("late")); // no longer in flight
        job(null, "*", "glob", List.of("other")); // did not expect it when it went out
        String answered = job(null, "*", "glob", List.of("late"));
        jobs.saveReturn(new JobReturn(answered, "late", "x", 0, true, Instant.now()));
        job(null, List.of("other"), "list", List.of("late")); // a target that does not match it
        String alsoDue = job(null, "l*", "glob", List.of("late"));

        signIn("late");
        BlockingQueue<Map<String, Object>> received = subscribeAs("late", false);

        Map<String, Object> first = next(received);
        assertThat(first).containsEntry("jid", due).containsEntry("fun", "test.arg").containsEntry("arg", List.of("x"))
                .containsEntry("tgt", List.of("late")).containsEntry("tgt_type", "list");
        assertThat(next(received)).containsEntry("jid", alsoDue).containsEntry("tgt", List.of("late"));

        // signing in again sends nothing twice: only the job published since arrives
        signIn("late");
        String newer = job(null, "*", "glob", List.of("late"));
        signIn("late");
        assertThat(next(received)).containsEntry("jid", newer);
        assertThat(received).isEmpty();
    }

    @Test
    void underZmqFilteringTheJobGoesOnThatMinionsTopicOnly() throws Exception {
        start(true, Duration.ofSeconds(30));
        String due = job(null, "*", "glob", List.of("late", "other"));
        BlockingQueue<Map<String, Object>> other = subscribeAs("other", true);
        await().atMost(Duration.ofSeconds(10)).until(() -> Topics.isSubscribedBy(server.subscribedTopics(), "other"));

        signIn("late");
        BlockingQueue<Map<String, Object>> late = subscribeAs("late", true);

        assertThat(next(late)).containsEntry("jid", due).containsEntry("tgt", List.of("late"));
        signIn("other"); // other is expected too and has not answered: it gets its own copy, on its own topic
        assertThat(next(other)).containsEntry("jid", due).containsEntry("tgt", List.of("other"));
        assertThat(late).isEmpty();
    }

    @Test
    void aMinionWhoseSubscriptionIsNeverSeenGetsItsJobsAfterTheWaitAtEachSignIn() throws Exception {
        start(false, Duration.ofMillis(300));
        // subscribes to everything only, as a salt-minion without zmq_filtering: the master cannot see it listen
        BlockingQueue<Map<String, Object>> received = new LinkedBlockingQueue<>();
        subscriptions.add(transport.subscribe("127.0.0.1", server.port(), List.of(new byte[0]),
                frame -> received.add(Publication.decode(frame, session.crypticle(), master.getPublic(), true))));
        await().atMost(Duration.ofSeconds(10)).until(() -> server.subscribedTopics().contains(""));
        String due = job(null, "*", "glob", List.of("late"));

        signIn("late");

        assertThat(next(received)).containsEntry("jid", due);
        // not seen listening, so not remembered: a later sign-in (the minion itself after a jsalt-call) gets it again
        signIn("late");
        assertThat(next(received)).containsEntry("jid", due);
    }

    @Test
    void onlyAnAcceptedSignInCounts() throws Exception {
        start(false, Duration.ofMillis(300));
        BlockingQueue<Map<String, Object>> received = subscribeAs("late", false); // gets every frame: no zmq_filtering
        await().atMost(Duration.ofSeconds(10)).until(() -> Topics.isSubscribedBy(server.subscribedTopics(), "late"));
        String forLate = job(null, "*", "glob", List.of("late"));
        String forOther = job(null, "other", "glob", List.of("other"));

        bus.fire("salt/auth", Map.of("result", true, "act", "pend", "id", "late", "pub", "..."));
        bus.fire("salt/auth", Map.of("result", false, "act", "accept", "id", "late", "pub", "..."));
        bus.fire("salt/minion/late/start", Map.of("id", "late", "act", "accept", "result", true));
        signIn("other"); // handled after the events above, on the same thread: its job comes first if they did nothing

        assertThat(next(received)).containsEntry("jid", forOther);
        signIn("late");
        assertThat(next(received)).containsEntry("jid", forLate);
        assertThat(received).isEmpty();
    }
}
