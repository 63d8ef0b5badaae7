package io.jsalt.cli.output;

import java.io.PrintStream;
import java.util.Map;

/** Writes minion returns in one of Salt's output formats. */
public interface Outputter {
    /** One minion's return, as it arrives. */
    void one(PrintStream out, String minion, Object ret);

    /** Every return at once (--static, or after gathering). */
    void all(PrintStream out, Map<String, Object> returns);

    static Outputter named(String name) {
        return switch (name) {
            case "nested" -> new NestedOutputter();
            case "json" -> new JsonOutputter();
            case "yaml" -> new YamlOutputter();
            default -> throw new IllegalArgumentException("unknown outputter '" + name + "' (nested, json, yaml)");
        };
    }
}
