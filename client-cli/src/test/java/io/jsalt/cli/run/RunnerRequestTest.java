package io.jsalt.cli.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.cli.jsalt.ArgParser;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunnerRequestTest {
    @Test
    void keyValueWordsBecomeTheKwargMapAndTheRestStayPositionalAndTyped() {
        RunnerRequest r = RunnerRequest.of("jobs.lookup_jid", ArgParser.parse(List.of("20261122091520123456", "5", "missing=True")), "ops");

        assertThat(r.toLoad()).containsExactly(
                Map.entry("cmd", "runner"),
                Map.entry("fun", "jobs.lookup_jid"),
                Map.entry("arg", List.of(new java.math.BigInteger("20261122091520123456"), 5L)),
                Map.entry("kwarg", Map.of("missing", true)),
                Map.entry("user", "ops"));
    }

    @Test
    void aCallWithoutArgumentsSendsAnEmptyListAndAnEmptyMap() {
        RunnerRequest r = RunnerRequest.of("manage.up", ArgParser.parse(List.of()), "root");

        assertThat(r.arg()).isEmpty();
        assertThat(r.kwarg()).isEmpty();
    }
}
