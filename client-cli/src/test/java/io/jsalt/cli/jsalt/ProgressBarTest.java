package io.jsalt.cli.jsalt;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** -p: Salt's progress line, redrawn in place on stderr. */
class ProgressBarTest {
    private final FakeMaster clock = new FakeMaster();
    private final StringWriter err = new StringWriter();

    @Test
    void theLineShowsPercentBarElapsedTimeAndReturnedOverTargeted() {
        ProgressBar bar = new ProgressBar(new PrintWriter(err, true), clock, 4);
        assertThat(bar.line()).isEqualTo("  0% |                              | Elapsed Time: 0:00:00 Returns: [0/4]");

        clock.advance(Duration.ofSeconds(65));
        bar.advance();

        assertThat(bar.line()).isEqualTo(" 25% |#######                       | Elapsed Time: 0:01:05 Returns: [1/4]");
        assertThat(err.toString()).isEqualTo("\r" + bar.line());
    }

    @Test
    void clearingErasesTheLineAndFinishingEndsIt() {
        ProgressBar bar = new ProgressBar(new PrintWriter(err, true), clock, 1);
        bar.draw();
        bar.clear();
        bar.clear(); // nothing shown: nothing to erase
        bar.advance();
        bar.finish();

        assertThat(err.toString()).isEqualTo("\r" + "  0% |                              | Elapsed Time: 0:00:00 Returns: [0/1]"
                + "\r\u001b[K" + "\r100% |##############################| Elapsed Time: 0:00:00 Returns: [1/1]"
                + "\r100% |##############################| Elapsed Time: 0:00:00 Returns: [1/1]" + System.lineSeparator());
    }
}
