package io.jsalt.master.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.JobReturn;
import io.jsalt.master.jobs.MemoryJobCache;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The jobs runner's cache-only functions, over a job cache filled by hand. */
class JobsRunnerTest {
    static final String PING = "20261122091520123456";
    static final String RUN = "20261122101500000001";
    static final String LISTED = "20261123080000000000";
    static final Instant AT = Instant.parse("2026-11-22T09:15:20.123456Z");

    final MemoryJobCache jobs = new MemoryJobCache();
    JobsRunner runner;

    @BeforeEach
    void fill() {
        runner = new JobsRunner(jobs, null, () -> 1);
        jobs.saveJob(new Job(PING, "test.ping", List.of(), "web*", "glob", "alice", List.of("web1", "web2", "web3"), AT));
        jobs.saveJob(new Job(RUN, "cmd.run", List.of("uptime", Map.of("__kwarg__", true, "cwd", "/")), "db1", "glob",
                "root", List.of("db1"), AT));
        jobs.saveJob(new Job(LISTED, "test.echo", List.of("hi"), List.of("web1", "db1"), "list", "", List.of("web1", "db1"), AT));
        jobs.saveReturn(new JobReturn(PING, "web2", true, 0, true, AT));
        jobs.saveReturn(new JobReturn(PING, "web1", true, 0, true, AT));
        jobs.saveReturn(new JobReturn(RUN, "db1", "boom", 1, false, AT));
    }

    @AfterEach
    void close() {
        jobs.close();
    }

    @Test
    void lookupJidGivesEachReturnByMinionInArrivalOrder() {
        assertThat(runner.lookupJid(PING, true, false)).containsExactly(Map.entry("web2", true), Map.entry("web1", true));
    }

    @Test
    void lookupJidWithMissingListsTheExpectedMinionsThatDidNotReturn() {
        assertThat(runner.lookupJid(PING, true, true)).containsExactly(Map.entry("web2", true), Map.entry("web1", true),
                Map.entry("web3", "Minion did not return"));
    }

    @Test
    void aLookedUpStateRunNamesTheHighstateOutputterAsSaltsLookupJidDoes() {
        String state = "20261122111500000002";
        jobs.saveJob(new Job(state, "state.apply", List.of("web"), "web1", "glob", "root", List.of("web1"), AT));
        Map<String, Object> ret = Map.of("test_|-x_|-x_|-nop", Map.of("result", true));
        jobs.saveReturn(new JobReturn(state, "web1", ret, 0, true, AT));

        assertThat(runner.withOutputter(state, runner.lookupJid(state, true, false)))
                .isEqualTo(Map.of("outputter", "highstate", "data", Map.of("web1", ret)));
        // any other function's returns stay as they are
        assertThat(runner.withOutputter(PING, runner.lookupJid(PING, true, false))).isEqualTo(Map.of("web2", true, "web1", true));
    }

    @Test
    void lookupJidOfAnUnknownJobIsEmpty() {
        assertThat(runner.lookupJid("20200101000000000000", true, true)).isEmpty();
    }

    @Test
    void listJobShowsTheJobAsSaltDoesWithItsResults() {
        Map<String, Object> job = runner.listJob(RUN);

        assertThat(job).containsOnlyKeys("jid", "Function", "Arguments", "Target", "Target-type", "User", "StartTime",
                "Minions", "Result");
        assertThat(job).containsEntry("jid", RUN).containsEntry("Function", "cmd.run").containsEntry("Target", "db1")
                .containsEntry("Target-type", "glob").containsEntry("User", "root")
                .containsEntry("StartTime", "2026, Nov 22 10:15:00.000001").containsEntry("Minions", List.of("db1"))
                .containsEntry("Arguments", List.of("uptime", Map.of("__kwarg__", true, "cwd", "/")))
                .containsEntry("Result", Map.of("db1", Map.of("return", "boom", "retcode", 1, "success", false, "verified", true)));
    }

    @Test
    void listJobOfAnUnknownJidShowsSalt3006sError() {
        Map<String, Object> job = runner.listJob("20200101000000000000");

        assertThat(job).containsOnlyKeys("jid", "Error", "StartTime", "Result")
                .containsEntry("Error", "Cannot contact returner or no job with this jid")
                .containsEntry("Result", Map.of()).containsEntry("StartTime", "2020, Jan 01 00:00:00.000000");
        assertThat(runner.printJob("2020031220475066498")).isEqualTo(Map.of("2020031220475066498",
                Map.of("Error", "Cannot contact returner or no job with this jid", "StartTime", "", "Result", Map.of())));
    }

    @Test
    void aJobWithoutATargetTypeShowsSaltsDefaultList() {
        jobs.saveJob(new Job("20261124000000000000", "test.ping", List.of(), "web1", null, "root", List.of("web1"), AT));

        assertThat(runner.listJob("20261124000000000000")).containsEntry("Target-type", "list");
    }

    @Test
    void lookupJidTakesSaltsParametersInSaltsOrder() {
        RunnerFunction lookup = function("jobs.lookup_jid");
        assertThat(lookup.signature()).hasToString(
                "jobs.lookup_jid(jid, ext_source=None, returned=True, missing=False, display_progress=False)");

        Object onlyMissing = lookup.body().call(ArgumentBinder.bind(lookup.signature(), List.of(PING, "None", false, true), Map.of()));

        assertThat(onlyMissing).isEqualTo(Map.of("web3", "Minion did not return"));
    }

    @Test
    void listJobsTakesSaltsParametersInSaltsOrder() {
        RunnerFunction list = function("jobs.list_jobs");
        assertThat(list.signature()).hasToString("jobs.list_jobs(ext_source=None, outputter=None, search_metadata=None,"
                + " search_function=None, search_target=None, start_time=None, end_time=None, display_progress=False)");

        Object byFunction = list.body().call(ArgumentBinder.bind(list.signature(), List.of(), Map.of("search_function", "cmd.*")));
        Object byMetadata = list.body().call(ArgumentBinder.bind(list.signature(), List.of(), Map.of("search_metadata", Map.of("a", 1))));

        assertThat(asMap(byFunction)).containsOnlyKeys(RUN);
        assertThat(asMap(byMetadata)).as("jsalt's jobs have no Metadata, which Salt never matches").isEmpty();
    }

    @Test
    void anExternalJobCacheIsRefusedWithAClearMessage() {
        for (String fun : List.of("jobs.lookup_jid", "jobs.list_job", "jobs.print_job")) {
            RunnerFunction f = function(fun);
            assertThatThrownBy(() -> f.body().call(ArgumentBinder.bind(f.signature(), List.of(PING, "mysql"), Map.of())))
                    .isInstanceOf(RunnerException.class).hasMessageContaining("jsalt has no external job cache");
        }
        RunnerFunction list = function("jobs.list_jobs");
        assertThatThrownBy(() -> list.body().call(ArgumentBinder.bind(list.signature(), List.of("mysql"), Map.of())))
                .isInstanceOf(RunnerException.class).hasMessageContaining("jsalt has no external job cache");
    }

    private RunnerFunction function(String name) {
        return runner.functions().stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void printJobIsListJobUnderItsJid() {
        Map<String, Object> printed = runner.printJob(PING);

        Map<String, Object> listed = runner.listJob(PING);
        listed.remove("jid");
        assertThat(printed).containsOnlyKeys(PING).containsEntry(PING, listed);
    }

    @Test
    void listJobsWithoutFiltersGivesEveryJobInJidOrderWithoutResults() {
        Map<String, Object> all = runner.listJobs(List.of(), List.of(), null, null);

        assertThat(all).containsOnlyKeys(PING, RUN, LISTED);
        assertThat(all.keySet()).containsExactly(PING, RUN, LISTED);
        assertThat(asMap(all.get(PING))).containsOnlyKeys("Function", "Arguments", "Target", "Target-type", "User",
                "StartTime");
        assertThat(asMap(all.get(LISTED))).containsEntry("User", "root").containsEntry("Target", List.of("web1", "db1"));
    }

    @Test
    void listJobsFiltersByFunctionGlobs() {
        assertThat(runner.listJobs(List.of("test.*"), List.of(), null, null)).containsOnlyKeys(PING, LISTED);
        assertThat(runner.listJobs(List.of("cmd.run", "test.echo"), List.of(), null, null)).containsOnlyKeys(RUN, LISTED);
        assertThat(runner.listJobs(List.of("state.*"), List.of(), null, null)).isEmpty();
    }

    @Test
    void listJobsFiltersByTargetAndAListTargetMatchesByAnyOfItsIds() {
        assertThat(runner.listJobs(List.of(), List.of("db1"), null, null)).containsOnlyKeys(RUN, LISTED);
        assertThat(runner.listJobs(List.of(), List.of("web\\*"), null, null)).isEmpty();
        assertThat(runner.listJobs(List.of(), List.of("web[*]"), null, null)).containsOnlyKeys(PING);
        assertThat(runner.listJobs(List.of("test.*"), List.of("db1"), null, null)).containsOnlyKeys(LISTED);
    }

    @Test
    void listJobsFiltersByStartTimeWithBothEndsIncluded() {
        assertThat(runner.listJobs(List.of(), List.of(), "2026, Nov 22 09:15:20.123456", "2026-11-22T10:15:00.000001Z"))
                .containsOnlyKeys(PING, RUN);
        assertThat(runner.listJobs(List.of(), List.of(), "2026-11-22T09:15:20.123457", null)).containsOnlyKeys(RUN, LISTED);
        assertThat(runner.listJobs(List.of(), List.of(), null, "2026, Nov 22 10:15")).containsOnlyKeys(PING);
    }

    @Test
    void aTimeThatCannotBeReadIsAnErrorForTheOperator() {
        assertThatThrownBy(() -> runner.listJobs(List.of(), List.of(), "last tuesday", null))
                .isInstanceOf(RunnerException.class).hasMessageContaining("start_time");
    }

    @Test
    void offersSaltsJobsFunctions() {
        assertThat(runner.functions()).extracting(RunnerFunction::name).containsExactly("jobs.lookup_jid", "jobs.list_job",
                "jobs.print_job", "jobs.list_jobs", "jobs.active");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object o) {
        return (Map<String, Object>) o;
    }
}
