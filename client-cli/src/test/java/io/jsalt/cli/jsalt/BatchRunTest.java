package io.jsalt.cli.jsalt;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Batch mode in waves on a fake clock: offline minions, --failhard, --batch-wait. */
class BatchRunTest {
    private final FakeMaster master = new FakeMaster();
    private final StringWriter err = new StringWriter();
    private final List<Duration> pauses = new ArrayList<>();
    private final List<String> answered = new ArrayList<>();
    private final Map<String, String> silent = new LinkedHashMap<>();

    private BatchRun.Result run(int size, boolean failhard, int waitSeconds, String... ids) throws Exception {
        for (String id : ids) {
            master.minion(id);
        }
        return runKnown(size, failhard, waitSeconds, List.of(ids));
    }

    private BatchRun.Result runKnown(int size, boolean failhard, int waitSeconds, List<String> ids) throws Exception {
        JobRun jobs = new JobRun(master, new JobWaiter(master, master, Duration.ofSeconds(2), Duration.ofSeconds(2)));
        BatchRun batch = new BatchRun(master, jobs, new PrintWriter(err, true), Duration.ofSeconds(waitSeconds), failhard, d -> {
            pauses.add(d);
            master.advance(d);
        });
        return batch.run(new JobSpec("*", "glob", "cmd.run", List.of("true")), ids, size, new JobRun.Listener() {
            @Override
            public void answered(String id, Answer answer) {
                answered.add(id);
            }

            @Override
            public void silent(String id, String notice) {
                silent.put(id, notice);
            }
        });
    }

    @Test
    void wavesHoldAtMostTheBatchSizeInTargetOrder() {
        assertThat(BatchRun.waves(List.of("a", "b", "c", "d", "e"), 2)).containsExactly(List.of("a", "b"), List.of("c", "d"), List.of("e"));
        assertThat(BatchRun.waves(List.of("a"), 5)).containsExactly(List.of("a"));
    }

    @Test
    void eachWaveIsPublishedToExactlyItsMinionsAsAListTarget() throws Exception {
        BatchRun.Result r = run(2, false, 0, "m1", "m2", "m3");

        List<JobSpec> jobs = master.published.stream().filter(j -> j.fun().equals("cmd.run")).toList();
        assertThat(jobs).extracting(JobSpec::tgt).containsExactly(List.of("m1", "m2"), List.of("m3"));
        assertThat(jobs).extracting(JobSpec::tgtType).containsOnly("list");
        assertThat(r.answers()).containsOnlyKeys("m1", "m2", "m3");
        assertThat(err.toString()).contains("Executing run on ['m1', 'm2']", "Executing run on ['m3']");
    }

    @Test
    void anOfflineMinionIsReportedInItsWaveAndTheRunGoesOn() throws Exception {
        master.minion("m1");
        master.minion("m2").connected = false;
        master.minion("m3");

        BatchRun.Result r = runKnown(1, false, 0, List.of("m1", "m2", "m3"));

        assertThat(r.answers()).containsOnlyKeys("m1", "m3");
        assertThat(r.notReturned()).containsExactly(Map.entry("m2", Silence.NOT_CONNECTED));
        assertThat(silent).containsOnlyKeys("m2");
        assertThat(answered).containsExactly("m1", "m3");
        assertThat(master.elapsed()).as("the offline wave costs timeout + gather_job_timeout").isLessThan(5);
    }

    @Test
    void failhardStopsAfterTheWaveInWhichAMinionFailed() throws Exception {
        master.minion("m1");
        master.minion("m2").retcode = 1;
        master.minion("m3");
        master.minion("m4");

        BatchRun.Result r = runKnown(2, true, 0, List.of("m1", "m2", "m3", "m4"));

        assertThat(r.answers()).containsOnlyKeys("m1", "m2");
        assertThat(r.notRun()).containsExactly("m3", "m4");
        assertThat(r.failed()).isEqualTo(1);
        assertThat(err.toString()).contains("Minion m2 returned with non-zero exit code. Batch run stopped due to failhard")
                .doesNotContain("'m3'");
    }

    @Test
    void withoutFailhardAFailingMinionDoesNotStopTheRun() throws Exception {
        master.minion("m1").retcode = 2;
        master.minion("m2");

        BatchRun.Result r = runKnown(1, false, 0, List.of("m1", "m2"));

        assertThat(r.answers()).containsOnlyKeys("m1", "m2");
        assertThat(r.notRun()).isEmpty();
    }

    @Test
    void batchWaitPausesBetweenWavesOnly() throws Exception {
        run(1, false, 3, "m1", "m2", "m3");

        assertThat(pauses).containsExactly(Duration.ofSeconds(3), Duration.ofSeconds(3));
    }
}
