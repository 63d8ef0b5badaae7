package io.jsalt.cli.jsalt;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/** What {@code --summary} prints after the returns, in Salt's words. */
record JobSummary(int targeted, int returned, Map<String, String> notReturned, int withErrors) {
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
        List<String> notConnected = with(Silence.NOT_CONNECTED);
        List<String> notResponding = notReturned.keySet().stream().filter(id -> !notConnected.contains(id)).toList();
        if (!notConnected.isEmpty()) {
            out.println("Minions not connected: " + String.join(" ", notConnected));
        }
        if (!notResponding.isEmpty()) {
            out.println("Minions not responding: " + String.join(" ", notResponding));
        }
    }

    private List<String> with(String notice) {
        return notReturned.entrySet().stream().filter(e -> e.getValue().equals(notice)).map(Map.Entry::getKey).toList();
    }
}
