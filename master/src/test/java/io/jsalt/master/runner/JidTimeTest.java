package io.jsalt.master.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class JidTimeTest {
    @Test
    void showsAJidAsSaltsStartTime() {
        assertThat(JidTime.startTime("20261122091520123456")).isEqualTo("2026, Nov 22 09:15:20.123456");
        assertThat(JidTime.startTime("20260105000000000000")).isEqualTo("2026, Jan 05 00:00:00.000000");
    }

    @Test
    void somethingThatIsNotAJidHasNoStartTime() {
        assertThat(JidTime.startTime("req")).isEmpty();
        assertThat(JidTime.startTime("20261322091520123456")).isEmpty();
        assertThat(JidTime.startTime(null)).isEmpty();
    }

    @Test
    void readsSaltsStartTimeBackToTheSameJid() {
        assertThat(JidTime.jidAt("start_time", "2026, Nov 22 09:15:20.123456")).isEqualTo("20261122091520123456");
        assertThat(JidTime.jidAt("start_time", "2015, mar 16 19:00")).isEqualTo("20150316190000000000");
        assertThat(JidTime.jidAt("start_time", "2026, Nov 22")).isEqualTo("20261122000000000000");
    }

    @Test
    void readsIsoTimesAsUtcUnlessTheyCarryAnOffset() {
        assertThat(JidTime.jidAt("end_time", "2026-11-22T09:15:20")).isEqualTo("20261122091520000000");
        assertThat(JidTime.jidAt("end_time", "2026-11-22 09:15")).isEqualTo("20261122091500000000");
        assertThat(JidTime.jidAt("end_time", "2026-11-22T09:15:20.5Z")).isEqualTo("20261122091520500000");
        assertThat(JidTime.jidAt("end_time", "2026-11-22T10:15:20+01:00")).isEqualTo("20261122091520000000");
        assertThat(JidTime.jidAt("end_time", "2026-11-22")).isEqualTo("20261122000000000000");
        assertThat(JidTime.jidAt("end_time", "2026-11-22T09:15:20.123456789Z")).isEqualTo("20261122091520123456");
    }

    @Test
    void refusesTextThatIsNoTimeNamingTheArgumentAndBothForms() {
        assertThatThrownBy(() -> JidTime.jidAt("start_time", "yesterday"))
                .isInstanceOf(RunnerException.class)
                .hasMessageContaining("start_time").hasMessageContaining("'yesterday'")
                .hasMessageContaining("2026, Nov 22 09:15:20.123456").hasMessageContaining("ISO-8601");
    }
}
