package io.jsalt.cli.jsalt;

import java.io.PrintStream;
import java.util.List;

/** What {@code --summary} prints after the returns, in Salt's words. */
record JobSummary(int targeted, int returned, List<String> notReturned, int withErrors) {
    private static final String RULE = "-------------------------------------------";

    void print(PrintStream out) {
        out.println();
        out.println(RULE);
        out.println("Summary");
        out.println(RULE);
        out.println("# of minions targeted: " + targeted);
        out.println("# of minions returned: " + returned);
        out.println("# of minions that did not return: " + notReturned.size());
        out.println("# of minions with errors: " + withErrors);
        out.println(RULE);
        if (!notReturned.isEmpty()) {
            out.println("Minions not responding: " + String.join(" ", notReturned));
        }
    }
}
