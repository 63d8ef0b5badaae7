package io.jsalt.transport.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Grain text longer than 64 KiB never matches, so a planted value cannot stall the matcher. */
class OversizedGrainValueTest {
    private static final int LIMIT = GrainCriterion.MAX_VALUE_CHARS;

    private static Decision decide(String type, String tgt, Object value) {
        return TargetMatcher.of(type, tgt).decide(new MinionFacts("m1", Map.of("planted", value)));
    }

    @Test
    void aGrainValueOfExactlyTheLimitStillMatches() {
        assertThat(decide("grain", "planted:*", "a".repeat(LIMIT))).isEqualTo(Decision.MATCH);
    }

    @Test
    void aGrainValueLongerThanTheLimitMatchesNoGlobOrRegex() {
        String big = "a".repeat(LIMIT + 1);

        assertThat(decide("grain", "planted:*", big)).isEqualTo(Decision.NO_MATCH);
        assertThat(decide("grain_pcre", "planted:.*", big)).isEqualTo(Decision.NO_MATCH);
        assertThat(decide("compound", "G@planted:a*", big)).isEqualTo(Decision.NO_MATCH);
        assertThat(decide("grain", "planted:*", List.of(big))).as("a list member too").isEqualTo(Decision.NO_MATCH);
    }

    @Test
    void aCatastrophicallyBacktrackingRegexOverAPlantedValueEndsAtOnce() {
        String planted = "x".repeat(LIMIT + 1);

        Decision d = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> decide("grain_pcre", "planted:(x+x+)+y", planted));

        assertThat(d).isEqualTo(Decision.NO_MATCH);
    }
}
