package io.jsalt.cli.jsalt;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.cli.ExitCode;
import io.jsalt.cli.output.NestedOutputter;
import io.jsalt.cli.output.Outputter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** How returns, silent minions and the progress bar share the terminal; and the exit code they add up to. */
class ReturnPrinterTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final PrintStream results = new PrintStream(out, true, StandardCharsets.UTF_8);
    private final StringWriter err = new StringWriter();

    private String printed() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void streamingPrintsEachReturnAsItComesAndTheSilentMinionsAfter() {
        ReturnPrinter p = new ReturnPrinter(new NestedOutputter(), results, true, false, null);
        p.answered("b", new Answer(true, 0));
        assertThat(printed()).isEqualTo("b:\n    True\n");

        p.silent("a", Silence.NOT_CONNECTED);
        p.finish();

        assertThat(printed()).isEqualTo("b:\n    True\na:\n    Minion did not return. [Not connected]\n");
    }

    private static final java.util.Map<String, Object> STATE_RUN = java.util.Map.of("test_|-x_|-x_|-nop", java.util.Map.of(
            "result", true, "comment", "Success!", "changes", java.util.Map.of(), "__run_num__", 0, "name", "x", "__id__", "x",
            "start_time", "10:00:00.000001", "duration", 0.5));
    private static final String STATE_RUN_AS_HIGHSTATE = "m1:\n----------\n          ID: x\n    Function: test.nop\n"
            + "      Result: True\n     Comment: Success!\n     Started: 10:00:00.000001\n    Duration: 0.5 ms\n     Changes:   \n\n"
            + "Summary for m1\n------------\nSucceeded: 1\nFailed:    0\n------------\nTotal states run:     1\n"
            + "Total run time:   0.500 ms\n";

    @Test
    void aReturnNamingTheHighstateOutputterIsShownWithItAndTheOthersWithTheChosenOne() {
        ReturnPrinter p = new ReturnPrinter(new NestedOutputter(), results, true, false, null)
                .withHighstate(Outputter.named("highstate"));
        p.answered("m1", new Answer(STATE_RUN, 0, true, "highstate"));
        assertThat(printed()).isEqualTo(STATE_RUN_AS_HIGHSTATE);

        p.answered("m2", new Answer(true, 0, true, null));

        assertThat(printed()).isEqualTo(STATE_RUN_AS_HIGHSTATE + "m2:\n    True\n");
    }

    @Test
    void withoutAHighstateOutputterAStateRunIsShownWithTheChosenOne() {
        ReturnPrinter p = new ReturnPrinter(Outputter.named("json", 0), results, true, false, null).withHighstate(null);

        p.answered("m1", new Answer(java.util.Map.of("k", 1L), 0, true, "highstate"));

        assertThat(printed()).isEqualTo("{\"m1\":{\"k\":1}}\n");
    }

    @Test
    void staticShowsTheWholeWithTheHighstateOutputterWhenAReturnNamedIt() {
        ReturnPrinter p = new ReturnPrinter(new NestedOutputter(), results, false, false, null)
                .withHighstate(Outputter.named("highstate"));
        p.answered("m1", new Answer(STATE_RUN, 0, true, "highstate"));
        assertThat(printed()).isEmpty();

        p.finish();

        assertThat(printed()).isEqualTo(STATE_RUN_AS_HIGHSTATE);
    }

    @Test
    void staticHoldsEverythingUntilTheEnd() {
        ReturnPrinter p = new ReturnPrinter(Outputter.named("json", 0), results, false, false, null);
        p.answered("b", new Answer(1L, 0));
        p.silent("a", Silence.NOT_CONNECTED);
        assertThat(printed()).isEmpty();

        p.finish();

        assertThat(printed()).isEqualTo("{\"b\":1,\"a\":\"Minion did not return. [Not connected]\"}\n");
    }

    @Test
    void hideTimeoutLeavesTheSilentMinionsOut() {
        ReturnPrinter p = new ReturnPrinter(new NestedOutputter(), results, false, true, null);
        p.answered("b", new Answer(true, 0));
        p.silent("a", Silence.NOT_CONNECTED);
        p.finish();

        assertThat(printed()).isEqualTo("b:\n    True\n");
    }

    @Test
    void theProgressBarIsClearedBeforeAReturnIsPrintedAndDrawnAgainAfter() {
        FakeMaster clock = new FakeMaster();
        ProgressBar bar = new ProgressBar(new PrintWriter(err, true), clock, 2);
        ReturnPrinter p = new ReturnPrinter(new NestedOutputter(), results, true, false, bar);
        bar.draw();

        p.answered("a", new Answer(true, 0));

        assertThat(err.toString()).isEqualTo("\r" + "  0% |                              | Elapsed Time: 0:00:00 Returns: [0/2]"
                + "\r\u001b[K" + "\r 50% |###############               | Elapsed Time: 0:00:00 Returns: [1/2]");
        assertThat(printed()).isEqualTo("a:\n    True\n");
    }

    @Test
    void aMinionThatDidNotReturnOutweighsOneThatFailed() {
        assertThat(JsaltCommand.exitCode(0, 0)).isEqualTo(ExitCode.OK);
        assertThat(JsaltCommand.exitCode(0, 3)).isEqualTo(ExitCode.MINION_ERROR);
        assertThat(JsaltCommand.exitCode(1, 3)).isEqualTo(ExitCode.NO_RETURN);
        assertThat(JsaltCommand.exitCode(1, 0)).isEqualTo(ExitCode.NO_RETURN);
    }
}
