package io.jsalt.cli.output;

import java.io.PrintStream;
import java.util.Map;

/** Writes minion returns in one of Salt's output formats. */
public interface Outputter {
    /** One minion's return, as it arrives. */
    void one(PrintStream out, String minion, Object ret);

    /** Every return at once (--static, or after gathering). */
    void all(PrintStream out, Map<String, Object> returns);

    /** One return with the minion's retcode, which a coloured outputter shows (Salt's {@code _retcode}). */
    default void one(PrintStream out, String minion, Object ret, int retcode) {
        one(out, minion, ret);
    }

    /** Every return at once, with each minion's retcode. */
    default void all(PrintStream out, Map<String, Object> returns, Map<String, Integer> retcodes) {
        all(out, returns);
    }

    /** A minion that did not return, with Salt's notice ({@code Minion did not return. [No response]}). */
    default void noReturn(PrintStream out, String minion, String notice) {
        one(out, minion, notice);
    }

    /** The outputter for {@code --out NAME}; {@code indent} is {@code --out-indent} (json only). */
    static Outputter named(String name, int indent) {
        return named(name, indent, Palette.NONE);
    }

    /** As {@link #named(String, int)}; {@code palette} colours the nested outputter (the others have none, as in Salt). */
    static Outputter named(String name, int indent, Palette palette) {
        return switch (name) {
            case "nested" -> new NestedOutputter(palette);
            case "highstate" -> new HighstateOutputter(palette, HighstateOutputter.Options.SALT_DEFAULTS);
            case "json" -> new JsonOutputter(indent);
            case "yaml" -> new YamlOutputter();
            case "txt" -> new TxtOutputter();
            case "raw" -> new RawOutputter();
            case "quiet" -> new QuietOutputter();
            default -> throw new IllegalArgumentException("unknown outputter '" + name + "' (nested, highstate, json, yaml, txt, raw, quiet)");
        };
    }

    static Outputter named(String name) {
        return named(name, JsonOutputter.DEFAULT_INDENT);
    }
}
