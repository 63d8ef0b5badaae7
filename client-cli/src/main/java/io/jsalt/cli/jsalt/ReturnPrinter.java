package io.jsalt.cli.jsalt;

import io.jsalt.cli.output.Outputter;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Prints returns as they come (or all at the end with {@code --static}), and the minions that did not
 * return unless {@code --hide-timeout}; keeps a progress bar, when there is one, out of the way. A return
 * that names the highstate outputter (a state run) is printed with it unless the user chose an outputter.
 */
final class ReturnPrinter implements JobRun.Listener {
    private final Outputter outputter;
    private Outputter highstate;
    private boolean heldHighstate;
    private final PrintStream results;
    private final boolean streaming;
    private final boolean hideTimeout;
    private final ProgressBar progress;
    private final Map<String, Object> held = new LinkedHashMap<>();
    private final Map<String, Integer> retcodes = new LinkedHashMap<>();

    /** @param progress the bar to keep clear of, or null */
    ReturnPrinter(Outputter outputter, PrintStream results, boolean streaming, boolean hideTimeout, ProgressBar progress) {
        this.outputter = outputter;
        this.results = results;
        this.streaming = streaming;
        this.hideTimeout = hideTimeout;
        this.progress = progress;
    }

    /** Prints the returns that ask for the highstate outputter with this one (none: all with the chosen one). */
    ReturnPrinter withHighstate(Outputter highstate) {
        this.highstate = highstate;
        return this;
    }

    @Override
    public void answered(String id, Answer answer) {
        boolean asHighstate = highstate != null && "highstate".equals(answer.out());
        if (streaming) {
            if (progress != null) {
                progress.clear();
            }
            (asHighstate ? highstate : outputter).one(results, id, answer.ret(), answer.retcode());
        } else {
            heldHighstate |= asHighstate; // Salt shows a --static whole with the outputter a return named
            held.put(id, answer.ret());
            retcodes.put(id, answer.retcode());
        }
        if (progress != null) {
            progress.advance(); // draws the bar again, one more return counted
        }
    }

    @Override
    public void silent(String id, String notice) {
        if (hideTimeout) {
            return;
        }
        if (streaming) {
            aside(() -> outputter.noReturn(results, id, notice));
        } else {
            held.put(id, notice);
        }
    }

    /** Ends the progress bar and prints what --static held back. */
    void finish() {
        if (progress != null) {
            progress.finish();
        }
        if (!streaming) {
            (heldHighstate ? highstate : outputter).all(results, held, retcodes);
        }
    }

    private void aside(Runnable print) {
        if (progress != null) {
            progress.clear();
        }
        print.run();
        if (progress != null) {
            progress.draw();
        }
    }
}
