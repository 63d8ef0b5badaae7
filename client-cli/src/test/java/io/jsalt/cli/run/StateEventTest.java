package io.jsalt.cli.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.cli.CliException;
import io.jsalt.cli.jsalt.ArgParser;
import java.util.List;
import org.junit.jupiter.api.Test;

/** state.event's arguments, read as Salt's runner reads them. */
class StateEventTest {
    private static StateEvent parse(String... words) {
        return StateEvent.from(RunnerRequest.of("state.event", ArgParser.parse(List.of(words)), "root"));
    }

    @Test
    void defaultsToEveryTagForeverAndCompactJson() {
        assertThat(parse()).isEqualTo(new StateEvent("*", -1, false));
    }

    @Test
    void takesTagmatchAndCountByPositionOrByName() {
        assertThat(parse("salt/job/*", "3")).isEqualTo(new StateEvent("salt/job/*", 3, false));
        assertThat(parse("tagmatch=salt/auth", "count=1", "pretty=True")).isEqualTo(new StateEvent("salt/auth", 1, true));
    }

    @Test
    void refusesArgumentsStateEventDoesNotTake() {
        assertThatThrownBy(() -> parse("color=True")).isInstanceOf(CliException.class)
                .hasMessageContaining("unexpected keyword argument 'color'");
        assertThatThrownBy(() -> parse("count=many")).isInstanceOf(CliException.class)
                .hasMessageContaining("count must be a number");
        assertThatThrownBy(() -> parse("node=minion")).isInstanceOf(CliException.class);
    }
}
