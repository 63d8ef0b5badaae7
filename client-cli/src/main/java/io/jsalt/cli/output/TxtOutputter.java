package io.jsalt.cli.output;

import java.io.PrintStream;
import java.util.Map;

/** {@code --out txt}, Salt's txt outputter: {@code minion: line} for each line of text, else its repr. */
public final class TxtOutputter implements Outputter {
    @Override
    public void one(PrintStream out, String minion, Object ret) {
        if (ret instanceof String s) {
            s.lines().forEach(line -> out.println(minion + ": " + line));
        } else {
            out.println(minion + ": " + PythonRepr.of(ret));
        }
        out.flush();
    }

    @Override
    public void all(PrintStream out, Map<String, Object> returns) {
        returns.forEach((minion, ret) -> one(out, minion, ret));
    }
}
