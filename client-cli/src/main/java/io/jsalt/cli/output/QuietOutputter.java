package io.jsalt.cli.output;

import java.io.PrintStream;
import java.util.Map;

/** {@code --out quiet}: prints nothing; the exit code alone tells what happened. */
public final class QuietOutputter implements Outputter {
    @Override
    public void one(PrintStream out, String minion, Object ret) {
        // quiet by design
    }

    @Override
    public void all(PrintStream out, Map<String, Object> returns) {
        // quiet by design
    }
}
