package io.jsalt.transport.zmq;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** When a connection awaiting its handshake is nudged next ({@link PollerNudge#nextNudgeMs}). */
class NudgeScheduleTest {
    private static final long[] SCHEDULE = {20, 60, 150};

    @Test
    void takesTheNextPointAndSkipsThePointsAWakeUpOverslept() {
        assertThat(PollerNudge.nextNudgeMs(SCHEDULE, 0, 500)).isEqualTo(20);
        assertThat(PollerNudge.nextNudgeMs(SCHEDULE, 20, 500)).isEqualTo(60);
        assertThat(PollerNudge.nextNudgeMs(SCHEDULE, 100, 500)).isEqualTo(150);
    }

    @Test
    void afterTheLastPointNudgesEveryIntervalOrNever() {
        assertThat(PollerNudge.nextNudgeMs(SCHEDULE, 150, 500)).isEqualTo(650);
        assertThat(PollerNudge.nextNudgeMs(SCHEDULE, 1000, 500)).isEqualTo(1500);
        assertThat(PollerNudge.nextNudgeMs(SCHEDULE, 150, 0)).isEqualTo(Long.MAX_VALUE);
    }
}
