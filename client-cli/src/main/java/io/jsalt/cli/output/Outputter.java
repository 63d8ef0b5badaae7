package io.jsalt.cli.output;

import java.io.PrintStream;
import java.util.Map;

/** Writes minion returns in one of Salt's output formats. */
public interface Outputter {
    /** One minion's return, as it arrives. */
    void one(PrintStream out, String minion, Object ret);

    /** Every return at once (--static, or after gathering). */
    void all(PrintStream out, Map<String, Object> returns);

    /** The outputter for {@code --out NAME}; {@code indent} is {@code --out-indent} (json only). */
    static Outputter named(String name, int indent) {
        return switch (name) {
            case "nested" -> new NestedOutputter();
            case "json" -> new JsonOutputter(indent);
            case "yaml" -> new YamlOutputter();
            case "txt" -> new TxtOutputter();
            case "raw" -> new RawOutputter();
            case "quiet" -> new QuietOutputter();
            default -> throw new IllegalArgumentException("unknown outputter '" + name + "' (nested, json, yaml, txt, raw, quiet)");
        };
    }

    static Outputter named(String name) {
        return named(name, JsonOutputter.DEFAULT_INDENT);
    }
}
