package io.jsalt.cli.jsalt;

import static io.jsalt.cli.jsalt.FakeMaster.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Salt's get_iter_returns waiting, with its saltutil.find_job follow-up, on a fake clock. */
class JobWaiterTest {
    private final FakeMaster master = new FakeMaster();
    private final List<String> heard = new ArrayList<>();

    private Map<String, Answer> await(int timeoutSeconds, int gatherJobTimeoutSeconds, String... ids) throws Exception {
        JobWaiter waiter = new JobWaiter(master, master, Duration.ofSeconds(timeoutSeconds), Duration.ofSeconds(gatherJobTimeoutSeconds));
        Published p = master.publish(new JobSpec("*", "glob", "test.ping", List.of()));
        assertThat(p.minions()).containsExactlyInAnyOrder(ids);
        return waiter.await(p.jid(), p.minions(), (id, a) -> heard.add(id));
    }

    @Test
    void minionsThatAnswerWithinTheTimeoutAreNeverAskedAboutTheJob() throws Exception {
        master.minion("a");
        master.minion("b").runsFor = SECOND / 2;

        Map<String, Answer> answers = await(5, 10, "a", "b");

        assertThat(answers).containsOnlyKeys("a", "b");
        assertThat(heard).containsExactly("a", "b");
        assertThat(master.findJobs()).isEmpty();
        assertThat(master.elapsed()).isLessThan(1);
    }

    @Test
    void aJobLongerThanTheTimeoutIsWaitedForWhileFindJobSaysItStillRuns() throws Exception {
        master.minion("slow").runsFor = 4 * SECOND;

        Map<String, Answer> answers = await(1, 1, "slow");

        assertThat(answers).containsOnlyKeys("slow");
        assertThat(master.findJobs()).isNotEmpty();
        assertThat(master.findJobs().get(0).tgtType()).isEqualTo("list");
        assertThat(master.findJobs().get(0).tgt()).isEqualTo(List.of("slow"));
        assertThat(master.findJobs().get(0).arg()).isEqualTo(List.of("j1"));
        assertThat(master.elapsed()).isBetween(4.0, 4.1);
    }

    @Test
    void aMinionThatAnswersNothingIsGivenUpAfterTheTimeoutAndOneFindJobRound() throws Exception {
        master.minion("up");
        master.minion("down").connected = false;

        Map<String, Answer> answers = await(2, 3, "up", "down");

        assertThat(answers).containsOnlyKeys("up");
        assertThat(master.findJobs()).hasSize(1);
        assertThat(master.findJobs().get(0).tgt()).isEqualTo(List.of("down"));
        assertThat(master.elapsed()).isEqualTo(5.0);
    }

    @Test
    void aMinionWhoseJobEndsWithoutAReturnIsGivenUpOnceFindJobNoLongerSeesIt() throws Exception {
        FakeMaster.FakeMinion crashing = master.minion("crashing");
        crashing.runsFor = 6 * SECOND;
        crashing.dropsJob = true; // the job vanishes after 3 s and never returns

        Map<String, Answer> answers = await(1, 1, "crashing");

        assertThat(answers).isEmpty();
        assertThat(master.findJobs().size()).isGreaterThan(1);
        assertThat(master.elapsed()).isBetween(3.0, 6.0);
    }

    @Test
    void eachFindJobRoundAsksOnlyTheMinionsStillSilent() throws Exception {
        master.minion("quick").runsFor = 3 * SECOND / 2;
        master.minion("slow").runsFor = 5 * SECOND;

        Map<String, Answer> answers = await(1, 1, "quick", "slow");

        assertThat(answers).containsOnlyKeys("quick", "slow");
        assertThat(master.findJobs().get(0).tgt()).isEqualTo(List.of("quick", "slow"));
        assertThat(master.findJobs().get(master.findJobs().size() - 1).tgt()).isEqualTo(List.of("slow"));
    }
}
