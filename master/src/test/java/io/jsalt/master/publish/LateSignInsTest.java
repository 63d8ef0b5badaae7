package io.jsalt.master.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.master.data.MinionDataCache;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.JobCache;
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
import io.jsalt.transport.message.PublishLoad;
import io.jsalt.transport.message.Topics;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
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

/**
 * Jobs that went out while a minion was not listening, sent again when it signs in: through the real publisher,
 * over a real publish port, to real subscriptions.
 */
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
    private final MovableClock clock = new MovableClock();
    private Transport transport;
    private PublishServer server;
    private TargetResolver targets;
    private JobPublisher publisher;
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
        start(zmqFiltering, subscribeWait, jobs);
    }

    private void start(boolean zmqFiltering, Duration subscribeWait, JobCache readFrom) {
        publisher = new JobPublisher(server, session, master.getPrivate(), zmqFiltering);
        lateSignIns = new LateSignIns(readFrom, targets, publisher, server::subscribedTopics, () -> WINDOW, subscribeWait, clock);
        bus.addListener(lateSignIns);
        publisher.whenNotListening(lateSignIns::missed);
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

    /** Stores and publishes a job as the master's publish handler does, to the minions {@code targeted}. */
    private String publish(Object tgt, String tgtType, List<String> targeted) throws Exception {
        String jid = jids.next();
        jobs.saveJob(new Job(jid, "test.arg", List.of("x"), tgt, tgtType, "root", targeted, Instant.now()));
        publisher.publish(new PublishLoad("test.arg", List.of("x"), tgt, jid, "", tgtType, "root"), targeted);
        lateSignIns.awaitQueued();
        return jid;
    }

    private void signIn(String id) throws Exception {
        bus.fire("salt/auth", Map.of("result", true, "act", "accept", "id", id, "pub", "..."));
        lateSignIns.awaitQueued();
    }

    /** What a jsalt minion subscribes to: everything and its presence topic, or under zmq_filtering its own topic. */
    private BlockingQueue<Map<String, Object>> subscribeAs(String id, boolean zmqFiltering) {
        List<byte[]> topics = zmqFiltering ? List.of(Topics.BROADCAST, Topics.ofMinion(id)) : List.of(new byte[0], Topics.presenceOf(id));
        BlockingQueue<Map<String, Object>> received = subscribe(topics);
        await().atMost(Duration.ofSeconds(10)).until(() -> Topics.isSubscribedBy(server.subscribedTopics(), id));
        return received;
    }

    private BlockingQueue<Map<String, Object>> subscribe(List<byte[]> topics) {
        BlockingQueue<Map<String, Object>> received = new LinkedBlockingQueue<>();
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
    void aMinionThatSignsInGetsTheJobsItMissedAloneOnceItListens() throws Exception {
        start(false, Duration.ofSeconds(30));
        publish("*", "glob", List.of("late"));
        clock.advance(Duration.ofHours(1)); // that one is no longer in flight
        String due = publish("*", "glob", List.of("late", "other"));
        jobs.saveReturn(new JobReturn(due, "other", "x", 0, true, Instant.now()));
        publish("other", "glob", List.of("other")); // did not target it
        String answered = publish("*", "glob", List.of("late"));
        jobs.saveReturn(new JobReturn(answered, "late", "x", 0, true, Instant.now()));
        publish(List.of("other"), "list", List.of("late")); // a target that does not match it
        String alsoDue = publish("l*", "glob", List.of("late"));

        signIn("late");
        BlockingQueue<Map<String, Object>> received = subscribeAs("late", false);

        assertThat(next(received)).containsEntry("jid", due).containsEntry("fun", "test.arg")
                .containsEntry("arg", List.of("x")).containsEntry("tgt", List.of("late")).containsEntry("tgt_type", "list");
        assertThat(next(received)).containsEntry("jid", alsoDue).containsEntry("tgt", List.of("late"));

        // signing in again sends nothing twice; a job published while it listens reaches it the usual way only
        signIn("late");
        String listened = publish("*", "glob", List.of("late"));
        signIn("late");
        assertThat(next(received)).containsEntry("jid", listened).containsEntry("tgt", "*");
        String barrier = publish("*", "glob", List.of("other"));
        assertThat(next(received)).containsEntry("jid", barrier);
    }

    @Test
    void underZmqFilteringTheJobGoesOnThatMinionsTopicOnly() throws Exception {
        start(true, Duration.ofSeconds(30));
        BlockingQueue<Map<String, Object>> other = subscribeAs("other", true);
        String due = publish("*", "glob", List.of("late", "other"));
        assertThat(next(other)).containsEntry("jid", due).containsEntry("tgt", "*");

        signIn("other"); // it was listening: nothing again
        signIn("late");
        BlockingQueue<Map<String, Object>> late = subscribeAs("late", true);

        assertThat(next(late)).containsEntry("jid", due).containsEntry("tgt", List.of("late"));
        String barrier = publish("*", "glob", List.of("other"));
        assertThat(next(other)).containsEntry("jid", barrier);
        assertThat(late).isEmpty();
    }

    @Test
    void aMinionWhoseSubscriptionIsNeverSeenGetsItsJobsAfterTheWaitAtEachSignIn() throws Exception {
        start(false, Duration.ofMillis(300));
        // everything and nothing else, as a salt-minion without zmq_filtering: the master cannot see it listen
        BlockingQueue<Map<String, Object>> received = subscribe(List.of(new byte[0]));
        await().atMost(Duration.ofSeconds(10)).until(() -> server.subscribedTopics().contains(""));
        String due = publish("*", "glob", List.of("late"));
        assertThat(next(received)).containsEntry("jid", due).containsEntry("tgt", "*");

        signIn("late");
        assertThat(next(received)).containsEntry("jid", due).containsEntry("tgt", List.of("late"));
        // not seen listening, so kept: a later sign-in (the minion itself after a jsalt-call) gets it again
        signIn("late");
        assertThat(next(received)).containsEntry("jid", due).containsEntry("tgt", List.of("late"));
    }

    @Test
    void onlyAnAcceptedSignInCounts() throws Exception {
        start(false, Duration.ZERO);
        BlockingQueue<Map<String, Object>> observer = subscribe(List.of(new byte[0]));
        await().atMost(Duration.ofSeconds(10)).until(() -> server.subscribedTopics().contains(""));
        String forLate = publish("*", "glob", List.of("late"));
        assertThat(next(observer)).containsEntry("jid", forLate);

        bus.fire("salt/auth", Map.of("result", true, "act", "pend", "id", "late", "pub", "..."));
        bus.fire("salt/auth", Map.of("result", false, "act", "accept", "id", "late", "pub", "..."));
        bus.fire("salt/minion/late/start", Map.of("id", "late", "act", "accept", "result", true));
        // signed in to another master, relayed through the shared bus (event_return: pgjsonb)
        bus.fire("salt/auth", Map.of("result", true, "act", "accept", "id", "late", "pub", "...", "master_id", "m2"));
        lateSignIns.awaitQueued();
        String barrier = publish("*", "glob", List.of("other"));
        assertThat(next(observer)).as("no catch-up before it").containsEntry("jid", barrier);

        signIn("late");
        assertThat(next(observer)).containsEntry("jid", forLate).containsEntry("tgt", List.of("late"));
    }

    @Test
    void aMinionSigningInWhileTheJobIsBeingSentStillGetsIt() throws Exception {
        start(false, Duration.ZERO);
        BlockingQueue<Map<String, Object>> observer = subscribe(List.of(new byte[0]));
        await().atMost(Duration.ofSeconds(10)).until(() -> server.subscribedTopics().contains(""));
        signIn("late"); // handled before the publisher says it did not listen: the sign-in is remembered

        String jid = jids.next();
        jobs.saveJob(new Job(jid, "test.arg", List.of("x"), "*", "glob", "root", List.of("late"), Instant.now()));
        lateSignIns.missed(jid, List.of("late"));

        assertThat(next(observer)).containsEntry("jid", jid).containsEntry("tgt", List.of("late"));
    }

    @Test
    void minionsThatSignedInJustBeforeAJobTheyMissedGetItInOnePublication() throws Exception {
        start(false, Duration.ofMillis(300));
        BlockingQueue<Map<String, Object>> observer = subscribe(List.of(new byte[0]));
        await().atMost(Duration.ofSeconds(10)).until(() -> server.subscribedTopics().contains(""));
        signIn("late");
        signIn("other");

        String jid = publish("*", "glob", List.of("late", "other")); // neither seen listening: both missed it
        assertThat(next(observer)).containsEntry("jid", jid).containsEntry("tgt", "*");

        // after the wait for their subscriptions, the job once for both, not once per minion
        assertThat(next(observer)).containsEntry("jid", jid).containsEntry("tgt", List.of("late", "other"));
        String barrier = publish(List.of("nobody"), "list", List.of());
        assertThat(next(observer)).containsEntry("jid", barrier);
    }

    @Test
    void aStormOfLateSignInsReadsEachMissedJobOnceAndNoJobsReturns() throws Exception {
        CountingJobCache counted = new CountingJobCache(jobs);
        start(false, Duration.ZERO, counted);
        BlockingQueue<Map<String, Object>> observer = subscribe(List.of(new byte[0]));
        await().atMost(Duration.ofSeconds(10)).until(() -> server.subscribedTopics().contains(""));
        String first = publish("*", "glob", List.of("late", "other"));
        String second = publish("*", "glob", List.of("late", "other"));
        assertThat(next(observer)).containsEntry("jid", first);
        assertThat(next(observer)).containsEntry("jid", second);
        jobs.saveReturn(new JobReturn(second, "other", "x", 0, true, Instant.now()));

        signIn("late");
        signIn("other");
        List<Object> again = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Map<String, Object> load = next(observer);
            again.add(List.of(load.get("jid"), load.get("tgt")));
        }

        // each minion gets what it missed and has not answered; "other" answered the second job already
        assertThat(again).containsExactlyInAnyOrder(List.of(first, List.of("late")), List.of(second, List.of("late")),
                List.of(first, List.of("other")));
        // each job read once for every sign-in, and each (job, minion) asked about alone: no job's whole return list
        assertThat(counted.jobReads).containsOnlyKeys(first, second).containsEntry(first, 1).containsEntry(second, 1);
        assertThat(counted.returnListReads).isZero();
    }

    /** The job cache, counting what the catch-up reads. */
    private static final class CountingJobCache implements JobCache {
        private final JobCache inner;
        final Map<String, Integer> jobReads = new java.util.concurrent.ConcurrentHashMap<>();
        volatile int returnListReads;

        CountingJobCache(JobCache inner) {
            this.inner = inner;
        }

        @Override
        public void saveJob(Job job) {
            inner.saveJob(job);
        }

        @Override
        public java.util.Optional<Job> job(String jid) {
            jobReads.merge(jid, 1, Integer::sum);
            return inner.job(jid);
        }

        @Override
        public List<Job> jobsBetween(String firstJid, String lastJid) {
            return inner.jobsBetween(firstJid, lastJid);
        }

        @Override
        public boolean saveReturn(JobReturn ret) {
            return inner.saveReturn(ret);
        }

        @Override
        public List<JobReturn> returns(String jid) {
            returnListReads++;
            return inner.returns(jid);
        }

        @Override
        public boolean hasReturn(String jid, String id) {
            return inner.hasReturn(jid, id);
        }

        @Override
        public int trimReturnsPerMinion(int max) {
            return inner.trimReturnsPerMinion(max);
        }

        @Override
        public void prune(Instant cutoff) {
            inner.prune(cutoff);
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    /** The system clock, moved ahead on demand. */
    private static final class MovableClock extends Clock {
        private volatile Duration ahead = Duration.ZERO;

        void advance(Duration by) {
            ahead = ahead.plus(by);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.now().plus(ahead);
        }
    }
}
