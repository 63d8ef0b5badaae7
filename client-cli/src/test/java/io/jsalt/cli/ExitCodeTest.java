package io.jsalt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Scripts depend on these numbers: Salt's own (0, 1, 2) and the BSD sysexits ones. */
class ExitCodeTest {
    @Test
    void codesAreSaltsAndSysexits() {
        assertThat(ExitCode.OK.code()).isZero();
        assertThat(ExitCode.MINION_ERROR.code()).isEqualTo(1);
        assertThat(ExitCode.NO_RETURN.code()).isEqualTo(2);
        assertThat(ExitCode.USAGE.code()).isEqualTo(64);
        assertThat(ExitCode.UNAVAILABLE.code()).isEqualTo(69);
        assertThat(ExitCode.SOFTWARE.code()).isEqualTo(70);
        assertThat(ExitCode.NO_PERMISSION.code()).isEqualTo(77);
        assertThat(ExitCode.CONFIG.code()).isEqualTo(78);
    }

    @Test
    void noTwoExitCodesShareANumber() {
        assertThat(Arrays.stream(ExitCode.values()).map(ExitCode::code)).doesNotHaveDuplicates();
    }
}
