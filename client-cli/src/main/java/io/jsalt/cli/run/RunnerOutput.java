package io.jsalt.cli.run;

import io.jsalt.cli.output.Json;
import io.jsalt.cli.output.Outputter;
import io.jsalt.cli.output.RawOutputter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.common.FlowStyle;

/**
 * Prints a runner's return as Salt's display_output does for salt-run: the value itself, with no minion
 * name above it. A map goes through the outputter as it is; any other value (manage.up's list, a message)
 * is printed the way that outputter would print it one level down, without the enclosing key.
 */
final class RunnerOutput {
    private static final String KEY = "_";

    private final String name;
    private final int indent;
    private final Outputter outputter;
    private final boolean chosen;
    private Outputter highstate = Outputter.named("highstate", 4);

    /**
     * @param name the outputter asked for with --out; null for the default (nested, unless the runner names one)
     * @throws IllegalArgumentException for an unknown outputter name
     */
    RunnerOutput(String name, int indent) {
        this.chosen = name != null;
        this.name = chosen ? name : "nested";
        this.indent = indent;
        this.outputter = Outputter.named(this.name, indent);
    }

    /** The highstate outputter to use when a runner names it (built with the master's state_output keys). */
    void highstate(Outputter configured) {
        this.highstate = configured;
    }

    @SuppressWarnings("unchecked")
    void print(PrintStream out, Object ret) {
        // Salt's runner convention (jobs.lookup_jid of a state run): {outputter: X, data: Y} prints Y with X,
        // unless --out chose another; either way the wrapper itself is not printed
        if (ret instanceof Map<?, ?> wrapped && wrapped.size() == 2 && wrapped.get("outputter") instanceof String named
                && wrapped.get("data") instanceof Map<?, ?> data && data.keySet().stream().allMatch(k -> k instanceof String)) {
            if (!chosen) {
                Outputter by = "highstate".equals(named) ? highstate : namedOrNested(named);
                by.all(out, (Map<String, Object>) data);
                out.flush();
                return;
            }
            ret = data;
        }
        if (ret instanceof Map<?, ?> map && map.keySet().stream().allMatch(k -> k instanceof String)) {
            outputter.all(out, (Map<String, Object>) map);
            return;
        }
        switch (name) {
            case "json" -> out.println(Json.write(ret, indent));
            case "yaml" -> out.print(new Dump(DumpSettings.builder().setDefaultFlowStyle(FlowStyle.BLOCK).build())
                    .dumpToString(ret));
            case "quiet" -> { }
            case "raw" -> out.println(repr(ret));
            // Salt's txt outputter prints a value that is not a dict as str(value)
            case "txt" -> out.println(ret instanceof String s ? s : repr(ret));
            default -> captured(outputter, ret).lines().skip(1).map(RunnerOutput::dedent).forEach(out::println);
        }
        out.flush();
    }

    private Outputter namedOrNested(String named) {
        try {
            return Outputter.named(named, indent);
        } catch (IllegalArgumentException e) {
            return outputter; // an outputter jsalt does not have: the default one, as Salt falls back to nested
        }
    }

    /** Python's repr of the value, from raw's {@code {'_': <repr>}}. */
    private static String repr(Object ret) {
        String s = captured(new RawOutputter(), ret).strip();
        String head = "{'" + KEY + "': ";
        return s.startsWith(head) && s.endsWith("}") ? s.substring(head.length(), s.length() - 1) : s;
    }

    /** What an outputter prints for {@code {KEY: ret}}. */
    private static String captured(Outputter o, Object ret) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (PrintStream p = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            o.one(p, KEY, ret);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }

    /** nested puts the value four spaces under its key. */
    private static String dedent(String line) {
        return line.startsWith("    ") ? line.substring(4) : line.strip();
    }
}
