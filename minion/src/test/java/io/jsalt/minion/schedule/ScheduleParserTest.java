package io.jsalt.minion.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.config.ConfigException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ScheduleParserTest {
    private static final Path FILE = Path.of("/etc/jsalt/minion");
    private static final ScheduleParser PARSER = new ScheduleParser(FILE, Set.of("test.ping", "test.arg", "cmd.run")::contains);

    private static Map<String, Object> job(Object... keyValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put((String) keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    private static List<ScheduledJob> parse(String name, Map<String, Object> job) {
        return PARSER.parse(Map.of(name, job));
    }

    @Test
    void readsSaltsIntervalForm() {
        List<ScheduledJob> jobs = parse("ping", job("function", "test.ping", "seconds", 30, "splay", 10,
                "args", List.of("a", 1), "kwargs", Map.of("k", "v")));

        assertThat(jobs).containsExactly(new ScheduledJob("ping", "test.ping", Duration.ofSeconds(30), Duration.ZERO,
                Duration.ofSeconds(10), List.of("a", 1), Map.of("k", "v"), true));
    }

    @Test
    void addsUpSecondsMinutesHoursAndDays() {
        ScheduledJob job = parse("x", job("function", "test.ping", "seconds", 35, "minutes", 30, "hours", 3, "days", 1)).get(0);

        assertThat(job.interval()).isEqualTo(Duration.ofSeconds(86_400 + 3 * 3600 + 30 * 60 + 35));
    }

    @Test
    void takesSplayAsARangeAndJobArgsAsSaltsScheduleModuleWritesThem() {
        ScheduledJob job = parse("x", job("function", "test.arg", "minutes", 1, "splay", Map.of("start", 5, "end", 20),
                "job_args", List.of("one"), "job_kwargs", Map.of("two", 2), "run_on_start", false)).get(0);

        assertThat(job.splayStart()).isEqualTo(Duration.ofSeconds(5));
        assertThat(job.splayEnd()).isEqualTo(Duration.ofSeconds(20));
        assertThat(job.args()).containsExactly("one");
        assertThat(job.kwargs()).containsExactly(Map.entry("two", 2));
        assertThat(job.runOnStart()).isFalse();
    }

    @Test
    void keepsFileOrderAndLeavesDisabledJobsOut() {
        Map<String, Object> schedule = new LinkedHashMap<>();
        schedule.put("b", job("function", "test.ping", "seconds", 1));
        schedule.put("off", job("function", "test.ping", "seconds", 1, "enabled", false));
        schedule.put("a", job("function", "cmd.run", "seconds", 1, "args", List.of("true")));

        assertThat(PARSER.parse(schedule)).extracting(ScheduledJob::name).containsExactly("b", "a");
    }

    @Test
    void anEmptyScheduleIsNoJobs() {
        assertThat(PARSER.parse(Map.of())).isEmpty();
    }

    @Test
    void refusesAFunctionTheMinionDoesNotHaveNamingTheKey() {
        assertThatThrownBy(() -> parse("ping", job("function", "test.pong", "seconds", 5)))
                .isInstanceOf(ConfigException.class)
                .hasMessage("/etc/jsalt/minion: schedule.ping.function: expected a function this minion has "
                        + "(see sys.list_functions), got \"test.pong\"");
    }

    @Test
    void refusesAJobWithoutFunction() {
        assertThatThrownBy(() -> parse("ping", job("seconds", 5)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("schedule.ping.function");
    }

    @Test
    void refusesAJobWithoutInterval() {
        assertThatThrownBy(() -> parse("ping", job("function", "test.ping")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("schedule.ping.seconds: expected an interval");
        assertThatThrownBy(() -> parse("ping", job("function", "test.ping", "seconds", 0)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("schedule.ping.seconds");
    }

    @Test
    void refusesNegativeFractionalAndTextIntervals() {
        for (Object bad : List.of(-1, 1.5, "10", true, 400L * 86_400)) {
            assertThatThrownBy(() -> parse("ping", job("function", "test.ping", "seconds", bad)))
                    .as("seconds: %s", bad).isInstanceOf(ConfigException.class).hasMessageContaining("schedule.ping.seconds");
        }
    }

    @Test
    void refusesABadSplay() {
        for (Object bad : List.of(-1, 2.5, Map.of("start", 10, "end", 5), Map.of("start", 1), Map.of("start", 1, "end", 2, "x", 3))) {
            assertThatThrownBy(() -> parse("ping", job("function", "test.ping", "seconds", 5, "splay", bad)))
                    .as("splay: %s", bad).isInstanceOf(ConfigException.class).hasMessageContaining("schedule.ping.splay");
        }
    }

    @Test
    void refusesSaltKeysJsaltDoesNotRunRatherThanIgnoringThem() {
        assertThatThrownBy(() -> parse("ping", job("function", "test.ping", "cron", "*/5 * * * *")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("schedule.ping.cron: expected one of [")
                .hasMessageContaining("interval schedules only");
    }

    @Test
    void refusesArgumentsOfTheWrongShapeOrGivenTwice() {
        assertThatThrownBy(() -> parse("p", job("function", "test.arg", "seconds", 5, "args", "a")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("schedule.p.args");
        assertThatThrownBy(() -> parse("p", job("function", "test.arg", "seconds", 5, "kwargs", List.of(1))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("schedule.p.kwargs");
        assertThatThrownBy(() -> parse("p", job("function", "test.arg", "seconds", 5, "args", List.of(), "job_args", List.of())))
                .isInstanceOf(ConfigException.class).hasMessageContaining("schedule.p.job_args: expected either args or job_args");
        assertThatThrownBy(() -> parse("p", job("function", "test.arg", "seconds", 5, "enabled", "yes")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("schedule.p.enabled: expected true or false");
    }

    @Test
    void refusesBadJobNamesAndEntriesThatAreNotMappings() {
        assertThatThrownBy(() -> parse("../x", job("function", "test.ping", "seconds", 5)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("schedule: expected job names");
        assertThatThrownBy(() -> PARSER.parse(Map.of("ping", "test.ping")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("schedule.ping: expected a mapping");
    }
}
