package io.jsalt.cli.output;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code --out json}: one object per minion as returns arrive, or one object with {@code --static}. */
public final class JsonOutputter implements Outputter {
    @Override
    public void one(PrintStream out, String minion, Object ret) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(minion, ret);
        out.println(Json.write(m, 4));
        out.flush();
    }

    @Override
    public void all(PrintStream out, Map<String, Object> returns) {
        out.println(Json.write(returns, 4));
        out.flush();
    }
}
