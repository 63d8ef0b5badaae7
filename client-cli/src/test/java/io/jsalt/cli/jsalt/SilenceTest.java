package io.jsalt.cli.jsalt;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Never a false "did not return": the job cache first, then connection state (Salt #57750). */
class SilenceTest {
    private final FakeMaster master = new FakeMaster();
    private final List<String> answered = new ArrayList<>();
    private final Map<String, String> silent = new LinkedHashMap<>();

    private JobRun.Outcome run() throws Exception {
        JobRun run = new JobRun(master, new JobWaiter(master, master, Duration.ofSeconds(1), Duration.ofSeconds(1)));
        return run.run(new JobSpec("*", "glob", "test.ping", List.of()), new JobRun.Listener() {
            @Override
            public void answered(String id, Answer answer) {
                answered.add(id);
            }

            @Override
            public void silent(String id, String notice) {
                silent.put(id, notice);
            }
        }).orElseThrow();
    }

    @Test
    void aReturnStoredInTheJobCacheWhoseEventWasLostIsReportedAsReturned() throws Exception {
        master.minion("a");
        FakeMaster.FakeMinion lost = master.minion("lost");
        lost.eventLost = true;
        lost.ret = "from the cache";

        JobRun.Outcome o = run();

        assertThat(o.answers()).containsOnlyKeys("a", "lost");
        assertThat(o.answers().get("lost").ret()).isEqualTo("from the cache");
        assertThat(o.notReturned()).isEmpty();
        assertThat(answered).containsExactly("a", "lost");
    }

    @Test
    void aMinionThatIsNotConnectedIsToldApartFromOneThatDoesNotRespond() throws Exception {
        master.minion("gone").connected = false;
        FakeMaster.FakeMinion hung = master.minion("hung");
        hung.runsFor = 3 * FakeMaster.SECOND;
        hung.dropsJob = true;

        JobRun.Outcome o = run();

        assertThat(o.notReturned()).containsEntry("gone", "Minion did not return. [Not connected]")
                .containsEntry("hung", "Minion did not return. [No response]\nThe minions may not have all finished running and "
                        + "any remaining minions will return upon completion. To look up the return data for this job later, "
                        + "run the following command:\n\njsalt-run jobs.lookup_jid " + o.jid());
        assertThat(silent).isEqualTo(o.notReturned());
        assertThat(o.targeted()).containsExactly("gone", "hung");
    }

    @Test
    void anUndecidedMinionIsPrintedWhenItAnswersAndNeverReportedMissingWhenItDoesNot() throws Exception {
        master.minion("known");
        master.minion("fresh");
        master.minion("other").targeted = false;
        master.undecided.addAll(List.of("fresh", "other"));

        JobRun.Outcome o = run();

        assertThat(o.answers()).containsOnlyKeys("known", "fresh");
        assertThat(o.notReturned()).isEmpty();
        assertThat(silent).isEmpty();
        assertThat(o.targeted()).containsExactly("known", "fresh");
    }

    @Test
    void withoutTheRunnersEverySilentMinionIsANoResponse() throws Exception {
        master.minion("gone").connected = false;
        master.runnersAvailable = false;

        JobRun.Outcome o = run();

        assertThat(o.notReturned()).containsExactly(Map.entry("gone", Silence.noResponse(o.jid(), LookupHint.DEFAULT)));
    }

    @Test
    void listTargetIdsTheMasterDoesNotKnowAreReportedAsNotConnected() throws Exception {
        master.minion("a");
        JobRun run = new JobRun(master, new JobWaiter(master, master, Duration.ofSeconds(1), Duration.ofSeconds(1)));

        JobRun.Outcome o = run.run(new JobSpec(List.of("a", "nosuch"), "list", "test.ping", List.of()), new JobRun.Listener() {
            @Override
            public void answered(String id, Answer answer) {}

            @Override
            public void silent(String id, String notice) {}
        }).orElseThrow();

        assertThat(o.answers()).containsOnlyKeys("a");
        assertThat(o.notReturned()).containsExactly(Map.entry("nosuch", Silence.NOT_CONNECTED));
        assertThat(o.targeted()).containsExactly("a", "nosuch");
    }
}
