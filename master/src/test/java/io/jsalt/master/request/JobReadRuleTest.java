package io.jsalt.master.request;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.master.auth.AuthList;
import io.jsalt.master.auth.Eauth;
import io.jsalt.master.runner.RunnerCalls;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Who may read a runner call's events (runner calls only: a runner call's rule needs no targets). */
class JobReadRuleTest {
    private final JobReadRule rule = new JobReadRule(null);
    private final Eauth.Caller conditional = new Eauth.Caller("ann", "file", "token",
            new AuthList(List.of(Map.of("@runner", List.of(Map.of("jobs.list_job", Map.of("kwargs", Map.of("jid", "\\d+"))))))));
    private final Eauth.Caller unconditional = new Eauth.Caller("ann", "file", "token", new AuthList(List.of("@runner")));

    @Test
    void aRunnerCallIsReadByItsUserWhileTheirRightsAllowItsArguments() {
        assertThat(rule.mayRead(conditional, RunnerCalls.Call.of("ann", "jobs.list_job", List.of(), Map.of("jid", "123")))).isTrue();
        assertThat(rule.mayRead(conditional, RunnerCalls.Call.of("ann", "jobs.list_job", List.of(), Map.of("jid", "x")))).isFalse();
        assertThat(rule.mayRead(conditional, RunnerCalls.Call.of("bob", "jobs.list_job", List.of(), Map.of("jid", "123")))).isFalse();
    }

    @Test
    void argumentsTooBigToKeepPassOnlyAnUnconditionalRight() {
        RunnerCalls.Call big = RunnerCalls.Call.of("ann", "jobs.list_job", List.of(), Map.of("jid", "1".repeat(2000)));
        assertThat(big.argsKept()).isFalse();
        assertThat(rule.mayRead(conditional, big)).isFalse();
        assertThat(rule.mayRead(unconditional, big)).isTrue();
    }
}
