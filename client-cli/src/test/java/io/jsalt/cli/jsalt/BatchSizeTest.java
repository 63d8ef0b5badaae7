package io.jsalt.cli.jsalt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ExitCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** -b N or N%, as Salt's get_bnum. */
class BatchSizeTest {
    @Test
    void aNumberIsTheWaveSize() {
        assertThat(BatchSize.parse("3").of(10)).isEqualTo(3);
        assertThat(BatchSize.parse("30").of(10)).isEqualTo(30);
    }

    @Test
    void aPercentageIsAShareOfTheTargetedMinionsRoundedDownButNeverBelowOne() {
        assertThat(BatchSize.parse("25%").of(10)).isEqualTo(2);
        assertThat(BatchSize.parse("%50").of(10)).isEqualTo(5);
        assertThat(BatchSize.parse("1%").of(10)).isEqualTo(1);
        assertThat(BatchSize.parse("100%").of(7)).isEqualTo(7);
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "0", "-2", "0%", "1.5", "", "%"})
    void anythingElseIsAUsageError(String text) {
        assertThatThrownBy(() -> BatchSize.parse(text)).isInstanceOf(CliException.class)
                .hasMessageContaining("Invalid batch data sent")
                .satisfies(e -> assertThat(((CliException) e).exitCode()).isEqualTo(ExitCode.USAGE));
    }
}
