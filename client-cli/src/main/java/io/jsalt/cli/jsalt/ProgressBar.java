package io.jsalt.cli.jsalt;

import java.io.PrintWriter;

/**
 * {@code -p/--progress}: one line on stderr redrawn in place, as Salt's progress outputter
 * ({@code  50% |#####     | Elapsed Time: 0:00:03 Returns: [1/2]}). Whoever prints a return clears it first
 * and redraws it after, so the two never mix on one terminal.
 */
final class ProgressBar {
    private static final int WIDTH = 30;

    private final PrintWriter err;
    private final Ticker ticker;
    private final long start;
    private int total;
    private int done;
    private boolean shown;

    ProgressBar(PrintWriter err, Ticker ticker, int total) {
        this.err = err;
        this.ticker = ticker;
        this.start = ticker.nanoTime();
        this.total = total;
    }

    void total(int total) {
        this.total = total;
    }

    void advance() {
        done++;
        draw();
    }

    void draw() {
        err.print("\r" + line());
        err.flush();
        shown = true;
    }

    /** Erases the bar so a return can be printed on a clean line. */
    void clear() {
        if (shown) {
            err.print("\r\u001b[K");
            err.flush();
            shown = false;
        }
    }

    /** Leaves the final bar on its own line. */
    void finish() {
        draw();
        err.println();
        err.flush();
        shown = false;
    }

    String line() {
        int pct = total == 0 ? 100 : (int) (100L * done / total);
        int filled = total == 0 ? WIDTH : (int) ((long) WIDTH * done / total);
        long seconds = (ticker.nanoTime() - start) / 1_000_000_000L;
        return String.format("%3d%% |%s%s| Elapsed Time: %d:%02d:%02d Returns: [%d/%d]", pct, "#".repeat(filled),
                " ".repeat(WIDTH - filled), seconds / 3600, seconds / 60 % 60, seconds % 60, done, total);
    }
}
