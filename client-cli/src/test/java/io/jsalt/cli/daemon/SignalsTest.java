package io.jsalt.cli.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Reading which signals a daemon was started with ignored, from /proc/PID/status. */
class SignalsTest {
    private static final String UNDER_NOHUP = "Name:\tjava\nSigQ:\t0/95426\nSigPnd:\t0000000000000000\n"
            + "SigBlk:\t0000000000000000\nSigIgn:\t0000000000000001\nSigCgt:\t2000000181005ccf\n";

    @Test
    void hupIgnoredUnderNohupIsSeenAndOtherSignalsAreNot() {
        assertThat(Signals.isIgnored(1, UNDER_NOHUP)).isTrue();
        assertThat(Signals.isIgnored(15, UNDER_NOHUP)).isFalse();
        assertThat(Signals.isIgnored(12, UNDER_NOHUP)).isFalse();
    }

    @Test
    void termAndUsr2BitsAreReadFromTheHexMask() {
        // TERM is signal 15: bit 14, 0x4000; USR2 is 12: bit 11, 0x800
        assertThat(Signals.isIgnored(15, "SigIgn:\t0000000000004800\n")).isTrue();
        assertThat(Signals.isIgnored(12, "SigIgn:\t0000000000004800\n")).isTrue();
        assertThat(Signals.isIgnored(1, "SigIgn:\t0000000000004800\n")).isFalse();
    }

    @Test
    void anUnknownOrUnreadableStatusIgnoresNothing() {
        assertThat(Signals.isIgnored(1, "")).isFalse();
        assertThat(Signals.isIgnored(1, "SigIgn:\tnot-hex\n")).isFalse();
    }
}
