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

    /** @throws IllegalArgumentException for an unknown outputter name */
    RunnerOutput(String name, int indent) {
        this.name = name;
        this.indent = indent;
        this.outputter = Outputter.named(name, indent);
    }

    @SuppressWarnings("unchecked")
    void print(PrintStream out, Object ret) {
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
