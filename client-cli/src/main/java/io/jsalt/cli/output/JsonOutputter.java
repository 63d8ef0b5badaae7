package io.jsalt.cli.output;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code --out json}: one object per minion as returns arrive, or one object with {@code --static}. */
public final class JsonOutputter implements Outputter {
    /** Salt's json outputter indents by 4. */
    public static final int DEFAULT_INDENT = 4;

    private final int indent;

    public JsonOutputter() {
        this(DEFAULT_INDENT);
    }

    /** @param indent spaces per level; 0 prints each object on one line */
    public JsonOutputter(int indent) {
        this.indent = indent;
    }

    @Override
    public void one(PrintStream out, String minion, Object ret) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(minion, ret);
        out.println(Json.write(m, indent));
        out.flush();
    }

    @Override
    public void all(PrintStream out, Map<String, Object> returns) {
        out.println(Json.write(returns, indent));
        out.flush();
    }
}
