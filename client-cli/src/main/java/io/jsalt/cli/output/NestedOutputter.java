package io.jsalt.cli.output;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Comparator;

/** Salt's default {@code nested} outputter, line for line (without colours). */
public final class NestedOutputter implements Outputter {

    @Override
    public void one(PrintStream out, String minion, Object ret) {
        all(out, java.util.Collections.singletonMap(minion, ret)); // a None return is null: Map.of would refuse it
    }

    @Override
    public void all(PrintStream out, Map<String, Object> returns) {
        List<String> lines = new ArrayList<>();
        display(returns, 0, "", lines);
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

    static void display(Object ret, int indent, String prefix, List<String> out) {
        String pad = " ".repeat(indent);
        if (ret == null) {
            out.add(pad + prefix + "None");
        } else if (ret instanceof Boolean b) {
            out.add(pad + prefix + (b ? "True" : "False"));
        } else if (ret instanceof Double || ret instanceof Float) {
            out.add(pad + prefix + PythonFloat.repr(((Number) ret).doubleValue()));
        } else if (ret instanceof Number n) {
            out.add(pad + prefix + n);
        } else if (ret instanceof String s) {
            List<String> lines = new ArrayList<>(Arrays.asList(s.split("\\r\\n|\\r|\\n", -1)));
            if (lines.get(lines.size() - 1).isEmpty()) {
                lines.remove(lines.size() - 1); // as Python's splitlines: no line for a final newline or ""
            }
            for (int i = 0; i < lines.size(); i++) {
                out.add(pad + (i == 0 ? prefix : " ".repeat(prefix.length())) + lines.get(i));
            }
        } else if (ret instanceof Collection<?> list) {
            for (Object item : list) {
                if (item instanceof Collection<?> || item instanceof Map<?, ?>) {
                    out.add(pad + "|_");
                    display(item, indent + 2, item instanceof Map<?, ?> ? "" : "- ", out);
                } else {
                    display(item, indent, "- ", out);
                }
            }
        } else if (ret instanceof Map<?, ?> map) {
            if (indent > 0) {
                out.add(pad + "----------");
            }
            for (Map.Entry<?, ?> e : sortedAsPython(map)) {
                out.add(pad + prefix + e.getKey() + ":");
                display(e.getValue(), indent + 4, "", out);
            }
        } else if (ret instanceof byte[] bytes) {
            out.add(pad + prefix + "<" + bytes.length + " bytes>");
        } else {
            out.add(pad + prefix + ret);
        }
    }
}
