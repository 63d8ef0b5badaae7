package io.jsalt.transport.codec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Peer-supplied text in a log line: bounded, and unable to forge lines or escape sequences. */
class PrintableTest {
    @Test
    void quotesShortPrintableTextAsItIs() {
        assertThat(Printable.quoted("_return")).isEqualTo("'_return'");
        assertThat(Printable.quoted(null)).isEqualTo("'null'");
    }

    @Test
    void replacesControlAndNonAsciiCharactersAndCutsLongText() {
        assertThat(Printable.quoted("a\r\nb\u001b[31mé")).isEqualTo("'a??b?[31m?'");
        assertThat(Printable.quoted("x".repeat(100))).isEqualTo("'" + "x".repeat(Printable.SHORT) + "...'");
        assertThat(Printable.of("y".repeat(300), 200)).hasSize(203);
    }

    @Test
    void theReasonOfARefusalShowsWhatThePeerSentOnOneBoundedLine() {
        WireException e = new WireException("unknown request encoding: clear\nFORGED " + "z".repeat(500));
        assertThat(Printable.reason(e)).startsWith("unknown request encoding: clear?FORGED").doesNotContain("\n")
                .hasSize(Printable.LONG + 3);
    }
}
