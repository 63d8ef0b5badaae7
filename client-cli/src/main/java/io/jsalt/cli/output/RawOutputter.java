package io.jsalt.cli.output;

import java.io.PrintStream;
import java.util.Collections;
import java.util.Map;

/** {@code --out raw}, Salt's raw outputter: the Python repr of {@code {minion: return}}. */
public final class RawOutputter implements Outputter {
    @Override
    public void one(PrintStream out, String minion, Object ret) {
        all(out, Collections.singletonMap(minion, ret));
    }

    @Override
    public void all(PrintStream out, Map<String, Object> returns) {
        out.println(PythonRepr.of(returns));
        out.flush();
    }
}
