package io.jsalt.cli.output;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Salt's default {@code nested} outputter (salt/output/nested.py), line for line, with its colours when
 * given a colour {@link Palette}: keys and {@code ----------} cyan, text green, None, booleans and numbers
 * bold yellow, and keys, separators and list marks red for a return with a non-zero retcode.
 */
public final class NestedOutputter implements Outputter {
    private final Palette palette;

    public NestedOutputter() {
        this(Palette.NONE);
    }

    public NestedOutputter(Palette palette) {
        this.palette = palette;
    }

    @Override
    public void one(PrintStream out, String minion, Object ret) {
        one(out, minion, ret, 0);
    }

    @Override
    public void one(PrintStream out, String minion, Object ret, int retcode) {
        print(out, Collections.singletonMap(minion, ret), retcode); // a None return is null: Map.of would refuse it
    }

    @Override
    public void all(PrintStream out, Map<String, Object> returns) {
        print(out, returns, 0);
    }

    @Override
    public void all(PrintStream out, Map<String, Object> returns, Map<String, Integer> retcodes) {
        for (Map.Entry<?, ?> e : sortedAsPython(returns)) {
            String id = (String) e.getKey();
            one(out, id, e.getValue(), retcodes.getOrDefault(id, 0));
        }
    }

    /** Salt's no_return outputter: the id in cyan, each line of the notice in red, indented by 4. */
    @Override
    public void noReturn(PrintStream out, String minion, String notice) {
        out.println(palette.cyan() + minion + palette.end() + ":");
        for (String line : notice.split("\n", -1)) {
            out.println(palette.red() + "    " + line + palette.end());
        }
        out.flush();
    }

    /** The lines Salt's nested outputter makes of {@code data} from {@code indent} (its nested_indent), retcode 0. */
    static List<String> lines(Object data, int indent, Palette palette) {
        List<String> lines = new ArrayList<>();
        new Display(palette, 0, lines).show(data, indent, "");
        return lines;
    }

    private void print(PrintStream out, Map<String, Object> returns, int retcode) {
        List<String> lines = new ArrayList<>();
        new Display(palette, retcode, lines).show(returns, 0, "");
        lines.forEach(out::println);
        out.flush();
    }

    /** Python's sorted(keys): numbers by value, text by code point; mixed kinds keep their order. */
    private static List<Map.Entry<?, ?>> sortedAsPython(Map<?, ?> map) {
        List<Map.Entry<?, ?>> entries = new ArrayList<>(map.entrySet());
        if (entries.stream().allMatch(e -> e.getKey() instanceof Number)) {
            entries.sort(Comparator.comparingDouble(e -> ((Number) e.getKey()).doubleValue()));
        } else if (entries.stream().allMatch(e -> e.getKey() instanceof String)) {
            entries.sort(Comparator.comparing(e -> (String) e.getKey()));
        }
        return entries;
    }

    /** One rendering: NestDisplay.display with its ustring(indent, colour, prefix + msg, end, suffix). */
    private record Display(Palette p, int retcode, List<String> out) {
        private String structure() {
            return retcode != 0 ? p.red() : p.cyan();
        }

        private void add(int indent, String color, String prefix, Object msg, String suffix) {
            out.add(" ".repeat(indent) + color + prefix + msg + p.end() + suffix);
        }

        void show(Object ret, int indent, String prefix) {
            if (ret == null) {
                add(indent, p.lightYellow(), prefix, "None", "");
            } else if (ret instanceof Boolean b) {
                add(indent, p.lightYellow(), prefix, b ? "True" : "False", "");
            } else if (ret instanceof Double || ret instanceof Float) {
                add(indent, p.lightYellow(), prefix, PythonFloat.repr(((Number) ret).doubleValue()), "");
            } else if (ret instanceof Number n) {
                add(indent, p.lightYellow(), prefix, n, "");
            } else if (ret instanceof String s) {
                List<String> lines = new ArrayList<>(Arrays.asList(s.split("\\r\\n|\\r|\\n", -1)));
                if (lines.get(lines.size() - 1).isEmpty()) {
                    lines.remove(lines.size() - 1); // as Python's splitlines: no line for a final newline or ""
                }
                for (int i = 0; i < lines.size(); i++) {
                    add(indent, p.green(), i == 0 ? prefix : " ".repeat(prefix.length()), lines.get(i), "");
                }
            } else if (ret instanceof Collection<?> list) {
                String color = retcode != 0 ? p.red() : p.green();
                for (Object item : list) {
                    if (item instanceof Collection<?> || item instanceof Map<?, ?>) {
                        add(indent, color, "", "|_", "");
                        show(item, indent + 2, item instanceof Map<?, ?> ? "" : "- ");
                    } else {
                        show(item, indent, "- ");
                    }
                }
            } else if (ret instanceof Map<?, ?> map) {
                if (indent > 0) {
                    add(indent, structure(), "", "----------", "");
                }
                for (Map.Entry<?, ?> e : sortedAsPython(map)) {
                    add(indent, structure(), prefix, e.getKey(), ":");
                    show(e.getValue(), indent + 4, "");
                }
            } else if (ret instanceof byte[] bytes) {
                add(indent, p.yellow(), prefix, "<" + bytes.length + " bytes>", "");
            } else {
                add(indent, p.green(), prefix, ret, "");
            }
        }
    }
}
