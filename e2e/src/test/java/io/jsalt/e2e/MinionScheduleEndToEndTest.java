package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** A minion's {@code schedule:} runs on its own and its results reach the master's event bus as job returns. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MinionScheduleEndToEndTest {
    private Cluster cluster;
    private EventTap bus;

    @BeforeAll
    void startCluster(@TempDir Path tmp) throws Exception {
        cluster = new Cluster(tmp);
        cluster.startMaster("auto_accept: True");
        bus = EventTap.connect(cluster.masterSockDir(), Duration.ofSeconds(10));
    }

    @AfterAll
    void stopCluster() {
        if (bus != null) {
            bus.close();
        }
        cluster.close();
    }

    @Test
    void aScheduledFunctionRunsEveryIntervalAndEachResultIsAReturnUnderAJidTheMasterIssued() throws Exception {
        cluster.startMinion("sched", "schedule:", "  often:", "    function: test.arg", "    seconds: 2", "    splay: 1",
                "    args: [hello]", "    kwargs: {word: bye}");

        await().atMost(Duration.ofSeconds(40)).until(() -> bus.matching(EventTap.returnOf("sched")).size() >= 2);

        List<EventTap.Seen> returns = bus.matching(EventTap.returnOf("sched"));
        assertThat(returns).allSatisfy(seen -> {
            Map<String, Object> data = seen.event().data();
            assertThat(data).containsEntry("fun", "test.arg").containsEntry("schedule", "often").containsEntry("id", "sched");
            assertThat(data.get("return")).asString().contains("args=[hello]", "word=bye");
            assertThat(seen.event().tag()).isEqualTo("salt/job/" + data.get("jid") + "/ret/sched");
        });
        assertThat(returns.stream().map(s -> s.event().data().get("jid")).distinct()).as("a fresh jid per run").hasSize(returns.size());
        Duration between = Duration.between(returns.get(0).at(), returns.get(1).at());
        assertThat(between).as("one interval apart, give or take").isBetween(Duration.ofMillis(1000), Duration.ofMillis(4000));
    }

    @Test
    void aScheduleNamingAFunctionTheMinionDoesNotHaveStopsTheMinionAtStartNamingTheKey() throws Exception {
        Process p = cluster.startMinion("badsched", "schedule:", "  typo:", "    function: test.pnig", "    seconds: 5");

        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isNotZero();
        String console = Cluster.read(cluster.root.resolve("console/badsched.out")) + Cluster.read(cluster.minionLog("badsched"));
        assertThat(console).contains("schedule.typo.function", "test.pnig");
    }
}
