package io.jsalt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class OptionSuggestionsTest {
    private static final List<String> JSALT = List.of("--timeout", "-t", "--out", "--out-file", "--out-indent", "--local",
            "--list", "-L", "-l", "--async", "--static");

    @Test
    void aTransposedPairIsOneEdit() {
        assertThat(OptionSuggestions.distance("--tiemout", "--timeout")).isEqualTo(1);
        assertThat(OptionSuggestions.near("--tiemout", JSALT)).containsExactly("--timeout");
    }

    @Test
    void closestComeFirstAndAValueAfterEqualsIsIgnored() {
        assertThat(OptionSuggestions.near("--outt=json", JSALT)).containsExactly("--out");
        assertThat(OptionSuggestions.near("--ou", List.of("--outs", "--oust", "--out", "--outfile"))).containsExactly("--out", "--oust", "--outs");
    }

    @Test
    void shortFormsSuggestOnlyShortFormsAndNothingFarIsSuggested() {
        assertThat(OptionSuggestions.near("-x", JSALT)).containsExactly("-L", "-l", "-t");
        assertThat(OptionSuggestions.near("--verbose", JSALT)).isEmpty();
    }
}
