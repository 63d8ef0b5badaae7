package io.jsalt.master.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.jsalt.master.data.MinionDataCache;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.MemoryJobCache;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.publish.JobPublisher;
import io.jsalt.master.session.SessionKey;
import io.jsalt.master.support.RecordedEvents;
import io.jsalt.master.support.TestKeys;
import io.jsalt.master.targeting.TargetResolver;
import io.jsalt.transport.target.InvalidTargetException;
import io.jsalt.transport.PublishServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Publishing a runner's job and gathering its returns from the bus, with the minions' returns fired by the test. */
class MinionJobsTest {
    @TempDir
    Path pki;
    final MemoryJobCache jobs = new MemoryJobCache();
    final EventBus bus = new EventBus();
    final RecordedEvents events = new RecordedEvents();
    final List<byte[]> published = new CopyOnWriteArrayList<>();
    final AtomicInteger workers = new AtomicInteger(3);
    final MinionDataCache data = new MinionDataCache();
    MinionJobs minionJobs;

    @BeforeEach
    void setUp() {
        KeyStore keys = new KeyStore(pki);
        String pem = TestKeys.pem(TestKeys.minion(1));
        keys.store(KeyState.ACCEPTED, "web1", pem);
        keys.store(KeyState.ACCEPTED, "web2", pem);
        keys.store(KeyState.PENDING, "web3", pem);
        bus.addListener(events);
        PublishServer server = new PublishServer() {
            @Override
            public void publish(byte[] payload) {
                published.add(payload);
            }

            @Override
            public void publish(byte[] topic, byte[] payload) {
                published.add(payload);
            }

            @Override
            public int port() {
                return 0;
            }

            @Override
            public void close() {
            }
        };
        data.putGrains("web1", Map.of("role", "web"));
        data.putGrains("web2", Map.of("role", "db"));
        minionJobs = new MinionJobs(new TargetResolver(keys, data, Map.of()), jobs, new Jids(), bus,
                new JobPublisher(server, new SessionKey(), null, false), workers::get);
    }

    @AfterEach
    void tearDown() {
        jobs.close();
    }

    @Test
    void storesAnnouncesAndPublishesTheJobToEveryAcceptedMinion() {
        Gathered g = minionJobs.run("test.ping", List.of(), "alice", Duration.ofMillis(50));

        assertThat(g.minions()).containsExactly("web1", "web2");
        assertThat(jobs.job(g.jid())).get().satisfies(j -> {
            assertThat(j.fun()).isEqualTo("test.ping");
            assertThat(j.tgt()).isEqualTo("*");
            assertThat(j.user()).isEqualTo("alice");
            assertThat(j.minions()).containsExactly("web1", "web2");
        });
        assertThat(events.tags()).containsExactly("salt/job/" + g.jid() + "/new");
        assertThat(published).hasSize(1);
    }

    @Test
    void endsAsSoonAsEveryMinionReturned() throws Exception {
        CompletableFuture<Gathered> run = CompletableFuture.supplyAsync(
                () -> minionJobs.run("test.ping", List.of(), "root", Duration.ofMinutes(5)));
        String jid = awaitJid();

        bus.fire("salt/job/" + jid + "/ret/web2", Map.of("return", true));
        bus.fire("salt/job/20200101000000000000/ret/web1", Map.of("return", "another job"));
        bus.fire("salt/job/" + jid + "/ret/ghost", Map.of("return", "not expected"));
        bus.fire("salt/job/" + jid + "/ret/web1", Map.of("return", "pong"));

        Gathered g = run.get(10, TimeUnit.SECONDS);
        assertThat(g.returns()).containsExactly(Map.entry("web2", true), Map.entry("web1", "pong"));
        assertThat(g.silent()).isEmpty();
    }

    @Test
    void aSilentMinionIsLeftOutOnceTheTimeoutIsUp() {
        CompletableFuture<Gathered> run = CompletableFuture.supplyAsync(
                () -> minionJobs.run("test.ping", List.of(), "root", Duration.ofMillis(500)));
        String jid = awaitJid();
        bus.fire("salt/job/" + jid + "/ret/web1", Map.of("return", true));

        Gathered g = await().atMost(Duration.ofSeconds(10)).until(() -> run.getNow(null), java.util.Objects::nonNull);

        assertThat(g.returns()).containsOnlyKeys("web1");
        assertThat(g.silent()).containsExactly("web2");
    }

    @Test
    void refusesToWaitWhenNoOtherMWorkerWouldBeLeftForTheReturns() throws Exception {
        workers.set(2);
        CompletableFuture<Gathered> first = CompletableFuture.supplyAsync(
                () -> minionJobs.run("test.ping", List.of(), "root", Duration.ofMinutes(5)));
        String jid = awaitJid();

        assertThatThrownBy(() -> minionJobs.run("test.ping", List.of(), "root", Duration.ofMinutes(5)))
                .isInstanceOf(RunnerException.class).hasMessageContaining("worker_threads is 2");

        bus.fire("salt/job/" + jid + "/ret/web1", Map.of("return", true));
        bus.fire("salt/job/" + jid + "/ret/web2", Map.of("return", true));
        assertThat(first.get(10, TimeUnit.SECONDS).returns()).hasSize(2);
        assertThat(minionJobs.run("test.ping", List.of(), "root", Duration.ofMillis(10)).minions()).hasSize(2);
    }

    @Test
    void withASingleMWorkerNothingMayWait() {
        workers.set(1);

        assertThatThrownBy(() -> minionJobs.run("test.ping", List.of(), "root", Duration.ofSeconds(1)))
                .isInstanceOf(RunnerException.class).hasMessageContaining("raise worker_threads");
        assertThat(jobs.jobsBetween(null, null)).isEmpty();
    }

    private String awaitJid() {
        await().atMost(Duration.ofSeconds(10)).until(() -> !jobs.jobsBetween(null, null).isEmpty() && !published.isEmpty());
        List<Job> all = jobs.jobsBetween(null, null);
        return all.get(all.size() - 1).jid();
    }

    @Test
    void reachesOnlyTheMinionsOfATargetAndStoresTheTarget() throws Exception {
        CompletableFuture<Gathered> run = CompletableFuture.supplyAsync(
                () -> minionJobs.run("test.ping", List.of(), "root", "grain", "role:web", Duration.ofMinutes(5)));
        String jid = awaitJid();
        bus.fire("salt/job/" + jid + "/ret/web1", Map.of("return", true));

        Gathered g = run.get(10, TimeUnit.SECONDS);
        assertThat(g.minions()).containsExactly("web1");
        assertThat(g.silent()).isEmpty();
        assertThat(jobs.job(jid)).get().satisfies(j -> {
            assertThat(j.tgt()).isEqualTo("role:web");
            assertThat(j.tgtType()).isEqualTo("grain");
        });
    }

    @Test
    void aBadTargetIsRefusedBeforeAnythingIsPublished() {
        assertThatThrownBy(() -> minionJobs.run("test.ping", List.of(), "root", "compound", "web1 and (", Duration.ofSeconds(1)))
                .isInstanceOf(InvalidTargetException.class);
        assertThat(published).isEmpty();
    }

    @Test
    void neverWaitsLongerThanFiveMinutes() {
        assertThat(MinionJobs.MAX_WAIT).isEqualTo(Duration.ofSeconds(300));
    }
}
