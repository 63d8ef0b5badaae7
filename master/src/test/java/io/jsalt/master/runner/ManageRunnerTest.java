package io.jsalt.master.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.master.data.MinionDataCache;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.jobs.MemoryJobCache;
import io.jsalt.master.keys.KeyAdmin;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.publish.JobPublisher;
import io.jsalt.master.session.SessionKey;
import io.jsalt.master.support.TestKeys;
import io.jsalt.master.targeting.TargetResolver;
import io.jsalt.transport.PublishServer;
import io.jsalt.transport.message.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Salt's manage runner parameters: targets for the ping, a bounded timeout, a subset for presence. */
class ManageRunnerTest {
    @TempDir
    Path pki;
    final MemoryJobCache jobs = new MemoryJobCache();
    final EventBus bus = new EventBus();
    final List<byte[]> published = new CopyOnWriteArrayList<>();
    KeyStore keys;
    ManageRunner runner;

    @BeforeEach
    void setUp() {
        keys = new KeyStore(pki);
        String pem = TestKeys.pem(TestKeys.minion(1));
        for (String id : List.of("web1", "web2", "db1")) {
            keys.store(KeyState.ACCEPTED, id, pem);
        }
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
        MinionJobs minionJobs = new MinionJobs(new TargetResolver(keys, new MinionDataCache(), Map.of()), jobs, new Jids(), bus,
                new JobPublisher(server, new SessionKey(), null, false), () -> 4);
        // web1 as a jsalt minion shows itself, db1 as a salt-minion under zmq_filtering
        Set<String> connected = Set.of(latin1(Topics.presenceOf("web1")), latin1(Topics.ofMinion("db1")));
        runner = new ManageRunner(keys, new KeyAdmin(keys, bus, () -> { }), minionJobs, () -> connected, () -> 5);
    }

    @AfterEach
    void tearDown() {
        jobs.close();
    }

    @Test
    void statusPingsOnlyTheTargetGivenInSaltsPositions() throws Exception {
        RunnerFunction status = function("manage.status");
        assertThat(status.signature()).hasToString(
                "manage.status(output=True, tgt='*', tgt_type='glob', timeout=None, gather_job_timeout=None)");

        CompletableFuture<Object> run = CompletableFuture.supplyAsync(() -> status.body().call(
                ArgumentBinder.bind(status.signature(), List.of(false, "web*", "glob", 60, 10), Map.of())));
        String jid = awaitJid();
        bus.fire("salt/job/" + jid + "/ret/web2", Map.of("return", true));
        bus.fire("salt/job/" + jid + "/ret/web1", Map.of("return", true));

        assertThat(run.get(10, TimeUnit.SECONDS)).isEqualTo(Map.of("up", List.of("web1", "web2"), "down", List.of()));
        assertThat(jobs.job(jid)).get().extracting(Job::tgt, Job::minions).containsExactly("web*", List.of("web1", "web2"));
    }

    @Test
    void upAndDownTakeATargetTypeAndSaltsOtherParameters() {
        assertThat(function("manage.up").signature()).hasToString(
                "manage.up(tgt='*', tgt_type='glob', timeout=None, gather_job_timeout=None, show_ip=False)");
        assertThat(function("manage.down").signature()).hasToString(
                "manage.down(removekeys=False, tgt='*', tgt_type='glob', timeout=None, gather_job_timeout=None)");
        RunnerFunction down = function("manage.down");

        CompletableFuture<Object> run = CompletableFuture.supplyAsync(() -> down.body().call(ArgumentBinder.bind(
                down.signature(), List.of(), Map.of("tgt", List.of("db1", "web2"), "tgt_type", "list", "timeout", 60))));
        String jid = awaitJid();
        bus.fire("salt/job/" + jid + "/ret/db1", Map.of("return", true));
        bus.fire("salt/job/" + jid + "/ret/web2", Map.of("return", true));

        assertThat(run.join()).isEqualTo(List.of());
    }

    @Test
    void aWireTimeoutIsBoundedToFiveMinutesAndNoneIsTheMastersTimeout() {
        assertThat(runner.seconds(100_000)).isEqualTo(300);
        assertThat(runner.seconds(Integer.MAX_VALUE)).isEqualTo(300);
        assertThat(runner.seconds(12)).isEqualTo(12);
        assertThat(runner.seconds(null)).isEqualTo(5);
        assertThat(runner.seconds(0)).isEqualTo(5);
        assertThat(runner.seconds(-3)).isEqualTo(5);
    }

    @Test
    void presentAndNotPresentTakeASubsetAndShowIp() {
        RunnerFunction present = function("manage.present");
        RunnerFunction notPresent = function("manage.not_present");
        assertThat(present.signature()).hasToString("manage.present(subset=None, show_ip=False)");

        assertThat(present.body().call(ArgumentBinder.bind(present.signature(), List.of(), Map.of())))
                .isEqualTo(List.of("db1", "web1"));
        assertThat(present.body().call(ArgumentBinder.bind(present.signature(), List.of(List.of("web1", "web2"), true), Map.of())))
                .isEqualTo(List.of("web1"));
        assertThat(notPresent.body().call(ArgumentBinder.bind(notPresent.signature(), List.of(), Map.of("subset", "db1,web2"))))
                .isEqualTo(List.of("web2"));
    }

    @Test
    void inAClusterAMinionSeenPresentByAnotherMasterIsPresentHereToo() {
        MinionJobs none = null; // presence sends nothing to minions
        ManageRunner clustered = new ManageRunner(keys, new KeyAdmin(keys, bus, () -> { }), none,
                () -> Set.of(latin1(Topics.presenceOf("web1"))), () -> 5, () -> Set.of("web2", "gone-elsewhere"));
        assertThat(clustered.present(id -> true)).containsExactly("web1", "web2");
        assertThat(clustered.notPresent(id -> true)).containsExactly("db1");
    }

    @Test
    void saltsOtherNamesForPresenceAnswerAsPresentAndNotPresentDo() {
        for (String alias : List.of("alived", "allowed", "joined", "reaped", "list_state")) {
            RunnerFunction f = function("manage." + alias);
            assertThat(f.signature()).hasToString("manage." + alias + "(subset=None, show_ip=False)");
            assertThat(f.body().call(ArgumentBinder.bind(f.signature(), List.of(), Map.of()))).as(alias).isEqualTo(List.of("db1", "web1"));
        }
        for (String alias : List.of("not_alived", "not_allowed", "not_joined", "not_reaped", "list_not_state")) {
            RunnerFunction f = function("manage." + alias);
            assertThat(f.body().call(ArgumentBinder.bind(f.signature(), List.of(), Map.of()))).as(alias).isEqualTo(List.of("web2"));
        }
    }

    @Test
    void versionsSortsTheMinionsUnderSaltsLabelsBesideTheMastersVersion() throws Exception {
        RunnerFunction versions = function("manage.versions");
        String master = MasterVersion.current();
        assertThat(master).as("Maven filled the version resource in").isNotEqualTo(MasterVersion.UNKNOWN).matches("\\d+\\.\\d+.*");

        CompletableFuture<Object> run = CompletableFuture.supplyAsync(() -> versions.body().call(
                ArgumentBinder.bind(versions.signature(), List.of(), Map.of())));
        String jid = awaitJid();
        assertThat(jobs.job(jid)).get().extracting(Job::fun).isEqualTo("test.version");
        bus.fire("salt/job/" + jid + "/ret/web1", Map.of("return", master));
        bus.fire("salt/job/" + jid + "/ret/web2", Map.of("return", "0.0.1"));
        bus.fire("salt/job/" + jid + "/ret/db1", Map.of("return", "'test.version' is not available."));

        Map<String, Object> expected = new java.util.TreeMap<>();
        expected.put("Master", master);
        expected.put("Up to date", Map.of("web1", master));
        expected.put("Minion requires update", Map.of("web2", "0.0.1"));
        expected.put("Minion offline", Map.of("db1", false));
        assertThat(run.get(10, TimeUnit.SECONDS)).isEqualTo(expected);
    }

    @Test
    void versionsAreComparedByTheirNumbers() {
        assertThat(VersionComparison.compare("0.1.0-SNAPSHOT", "0.1.0")).hasValue(0);
        assertThat(VersionComparison.compare("0.10.0", "0.9.9").orElseThrow()).isPositive();
        assertThat(VersionComparison.compare("3006.8", "3007").orElseThrow()).isNegative();
        assertThat(VersionComparison.compare("no version", "0.1.0")).isEmpty();
    }

    private RunnerFunction function(String name) {
        return runner.functions().stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow();
    }

    private String awaitJid() {
        await().atMost(Duration.ofSeconds(10)).until(() -> !jobs.jobsBetween(null, null).isEmpty() && !published.isEmpty());
        List<Job> all = jobs.jobsBetween(null, null);
        return all.get(all.size() - 1).jid();
    }

    private static String latin1(byte[] topic) {
        return new String(topic, StandardCharsets.ISO_8859_1);
    }
}
