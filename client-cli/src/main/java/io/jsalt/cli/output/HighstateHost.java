package io.jsalt.cli.output;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One minion's part of the highstate output: salt/output/highstate.py's {@code _format_host}, line for line
 * (the same text, spacing and colours), for the options jsalt takes. Not thread-safe: one per host.
 */
final class HighstateHost {
    private static final Pattern KEY_PARTS = Pattern.compile(Pattern.quote("_|-"));
    private static final String INDENT_14 = " ".repeat(14);
    private static final List<String> LABELS = List.of("Succeeded", "Failed", "Not Run", "Warnings");
    private static final int LABEL_MAX_LEN = LABELS.stream().mapToInt(String::length).max().orElse(0);

    /** The text and whether anything changed (a nested highstate counts as a change). */
    record Formatted(String text, boolean changed) {}

    private final Palette c;
    private final HighstateOutputter.Options options;
    private final List<String> lines = new ArrayList<>();
    /** Count per result value (True, False, None: a null key, or whatever a state put there), and "warnings". */
    private final Map<Object, Integer> counts = new LinkedHashMap<>();
    private final List<Double> durations = new ArrayList<>();
    private String hostColor;
    private int changes;
    private String host;

    HighstateHost(Palette palette, HighstateOutputter.Options options) {
        this.c = palette;
        this.options = options;
        this.hostColor = palette.green();
    }

    Formatted format(String host, Object data) {
        this.host = host;
        if (data instanceof Boolean || data instanceof Number && !(data instanceof Double || data instanceof Float)) {
            changes = 1;
            lines.add(hostColor + "    " + Py.str(data) + c.end());
            hostColor = c.cyan();
        } else if (data instanceof String s) {
            // a string is what saltmod.function returns: always a change
            changes = 1;
            for (String line : Py.splitlines(s)) {
                lines.add(hostColor + "    " + line + c.end());
            }
            hostColor = c.cyan();
        } else if (data instanceof Collection<?> errors) {
            hostColor = c.lightRed();
            lines.add("    " + hostColor + "Data failed to compile:" + c.end());
            for (Object err : errors) {
                lines.add(hostColor + "----------\n    " + Py.str(err) + c.end());
            }
        } else if (data instanceof Map<?, ?> states) {
            states(states);
        }
        lines.add(0, hostColor + host + ":" + c.end());
        return new Formatted(String.join("\n", lines), changes > 0);
    }

    private void states(Map<?, ?> raw) {
        Map<String, Map<?, ?>> states = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : raw.entrySet()) {
            if (e.getValue() instanceof Map<?, ?> info && !"changes".equals(e.getKey()) && !info.isEmpty()
                    && !info.containsKey("__run_num__")) {
                lines.add(0, Py.str(info));
                lines.add(0, "The State execution failed to record the order in which all states were executed. "
                        + "The state return missing data is:");
            }
            if (e.getValue() instanceof Map<?, ?> info && info.containsKey("result")) {
                states.put(String.valueOf(e.getKey()), info);
            }
        }
        List<Map.Entry<String, Map<?, ?>>> ordered = new ArrayList<>(states.entrySet());
        ordered.sort(Comparator.comparingDouble(e -> runNum(e.getValue()))); // stable, as Python's sorted
        for (Map.Entry<String, Map<?, ?>> e : ordered) {
            state(e.getKey(), e.getValue());
        }
        summary();
    }

    private void state(String key, Map<?, ?> ret) {
        Object result = ret.get("result");
        counts.merge(result, 1, Integer::sum);
        Object duration = ret.containsKey("duration") ? ret.get("duration") : 0;
        Double parsed = Py.parseDuration(duration);
        if (parsed != null) {
            durations.add(parsed);
        }
        ChangesText changed = changes(ret.get("changes"));
        changes += changed.changed() ? 1 : 0;
        boolean succeeded = Py.truthy(result);
        if (!options.verbose() && succeeded && !changed.changed()) {
            return;
        }
        String color = changed.changed() ? c.cyan() : c.green();
        if (Boolean.FALSE.equals(result)) {
            hostColor = c.red();
            color = c.red();
        } else if (result == null) {
            hostColor = c.lightYellow();
            color = c.lightYellow();
        }
        String[] parts = KEY_PARTS.split(key, -1);
        String id = parts[1];
        String function = parts[0] + "." + parts[3];
        String name = options.stateOutput().endsWith("_id") ? id : parts[2];
        String mode = options.stateOutput();
        if (mode.startsWith("terse") || mode.startsWith("mixed") && !Boolean.FALSE.equals(result)
                || mode.startsWith("changes") && succeeded && !changed.changed()) {
            lines.add(terse(color, name, function, ret, result));
            return;
        }
        List<String> block = new ArrayList<>();
        block.add(color + "----------" + c.end());
        block.add("    " + color + "      ID: " + id + c.end());
        block.add("    " + color + "Function: " + function + c.end());
        block.add("    " + color + "  Result: " + Py.str(result) + c.end());
        block.add("    " + color + " Comment: " + comment(ret) + c.end());
        if (options.profile() && ret.containsKey("start_time")) {
            block.add("    " + color + " Started: " + Py.str(ret.get("start_time")) + c.end());
            Object d = ret.containsKey("duration") ? ret.get("duration") : "";
            block.add("    " + color + "Duration: " + ("".equals(d) ? "" : Py.str(d) + " ms") + c.end());
        }
        if (!id.equals(name)) {
            block.add(3, "    " + color + "    Name: " + name + c.end());
        }
        lines.addAll(block);
        lines.add(color + "     Changes:   " + changed.text() + c.end());
        if (ret.get("warnings") instanceof Collection<?> warnings) {
            counts.merge("warnings", 1, Integer::sum);
            List<String> texts = warnings.stream().map(Py::str).toList();
            lines.add("   " + c.lightRed() + " Warnings: " + Py.fill(String.join("\n", texts), 80, INDENT_14).stripLeading() + c.end());
        }
    }

    private String terse(String color, String name, String function, Map<?, ?> ret, Object result) {
        String word = Py.truthy(ret.get("changes")) ? "Changed" : "Clean";
        if (Boolean.FALSE.equals(result)) {
            word = "Failed";
        } else if (result == null) {
            word = "Differs";
        }
        StringBuilder line = new StringBuilder();
        if (ret.get("warnings") instanceof Collection<?> warnings) {
            line.append(c.lightRed()).append("Warnings:\n")
                    .append(String.join("\n", warnings.stream().map(Py::str).toList())).append(c.end());
        }
        line.append(' ').append(color).append(" Name: ").append(name).append(" - Function: ").append(function)
                .append(" - Result: ").append(word);
        if (options.profile() && ret.containsKey("start_time")) {
            line.append(" - Started: ").append(Py.str(ret.get("start_time")))
                    .append(" - Duration: ").append(Py.str(ret.get("duration"))).append(" ms");
        }
        return line.append(c.end()).toString();
    }

    /** The comment as Salt shows it: stripped, continuation lines indented to the column of the text. */
    private static String comment(Map<?, ?> ret) {
        String comment = Py.str(ret.get("comment")).strip().replace("\n", "\n" + INDENT_14);
        if (ret.containsKey("data")) {
            Object data = ret.get("data");
            if (data instanceof Collection<?> items) {
                for (Object item : items) {
                    comment = comment + " " + Py.str(item);
                }
            } else if (data instanceof Map<?, ?> m) {
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    comment = comment + "\n\t\t" + Py.str(e.getKey()) + ": " + Py.str(e.getValue());
                }
            } else {
                comment = comment + " " + Py.str(data);
            }
        }
        return comment;
    }

    private record ChangesText(boolean changed, String text) {}

    private ChangesText changes(Object changes) {
        if (!Py.truthy(changes)) {
            return new ChangesText(false, "");
        }
        if (!(changes instanceof Map<?, ?> m)) {
            return new ChangesText(true, "Invalid Changes data: " + Py.str(changes));
        }
        if (m.get("ret") instanceof Map<?, ?> hosts && "highstate".equals(m.get("out"))) {
            // a state that ran a state run elsewhere (saltmod): each host's block, indented
            StringBuilder text = new StringBuilder();
            boolean changed = false;
            for (Map.Entry<?, ?> e : hosts.entrySet()) {
                Formatted f = new HighstateHost(c, options).format(String.valueOf(e.getKey()), e.getValue());
                for (String line : Py.splitlines(f.text())) {
                    text.append('\n').append(INDENT_14).append(line);
                }
                changed |= f.changed();
            }
            return new ChangesText(changed, text.toString());
        }
        return new ChangesText(true, "\n" + String.join("\n", NestedOutputter.lines(changes, 14, c)));
    }

    private void summary() {
        int countMaxLen = counts.values().stream().mapToInt(n -> Integer.toString(n).length()).max().orElse(0);
        int width = LABEL_MAX_LEN + countMaxLen + 2;
        String rule = "-".repeat(width);
        lines.add(c.cyan() + "\nSummary for " + host + "\n" + rule + c.end());
        int notRun = counts.getOrDefault(null, 0);
        List<String> stats = new ArrayList<>();
        if (notRun > 0) {
            stats.add(c.lightYellow() + "unchanged=" + notRun + c.end());
        }
        if (changes > 0) {
            stats.add(c.green() + "changed=" + changes + c.end());
        }
        String changeStats = stats.isEmpty() ? "" : " (" + String.join(", ", stats) + ")";
        lines.add(c.green() + count("Succeeded", counts.getOrDefault(Boolean.TRUE, 0) + notRun, width) + c.end() + changeStats);
        int failed = counts.getOrDefault(Boolean.FALSE, 0);
        lines.add((failed > 0 ? c.red() : c.cyan()) + count("Failed", failed, width) + c.end());
        int warnings = counts.getOrDefault("warnings", 0);
        if (warnings > 0) {
            lines.add(c.lightRed() + count("Warnings", warnings, width) + c.end());
        }
        int total = counts.values().stream().mapToInt(Integer::intValue).sum() - warnings;
        lines.add(c.cyan() + rule + "\nTotal states run: " + Py.rjust(Integer.toString(total), width - 7) + c.end());
        if (options.profile()) {
            double sum = 0;
            for (double d : durations) {
                sum += d; // in order, as Python's sum
            }
            String unit = "ms";
            if (sum > 999) {
                sum /= 1000;
                unit = "s";
            }
            String fixed = new BigDecimal(sum).setScale(3, RoundingMode.HALF_EVEN).toPlainString();
            lines.add(c.cyan() + "Total run time: " + Py.rjust(fixed, width - 5) + " " + unit + c.end());
        }
    }

    private static String count(String label, int count, int width) {
        return label + ": " + Py.rjust(Integer.toString(count), width - (label.length() + 2));
    }

    private static double runNum(Map<?, ?> info) {
        return info.get("__run_num__") instanceof Number n ? n.doubleValue() : 0;
    }

    /** The few Python behaviours the outputter depends on. */
    static final class Py {
        private Py() {}

        /** Python's str(): text as it is, everything else as its repr. */
        static String str(Object v) {
            if (v instanceof String s) {
                return s;
            }
            if (v instanceof Double || v instanceof Float) {
                return PythonFloat.repr(((Number) v).doubleValue());
            }
            return PythonRepr.of(v);
        }

        static boolean truthy(Object v) {
            if (v == null || Boolean.FALSE.equals(v)) {
                return false;
            }
            if (v instanceof Number n) {
                return n.doubleValue() != 0;
            }
            if (v instanceof String s) {
                return !s.isEmpty();
            }
            if (v instanceof Collection<?> col) {
                return !col.isEmpty();
            }
            if (v instanceof Map<?, ?> m) {
                return !m.isEmpty();
            }
            return true;
        }

        /** float(duration), or a string "12.5 ms"; null when neither parses (Salt logs an error and skips it). */
        static Double parseDuration(Object v) {
            if (v instanceof Number n) {
                return n.doubleValue();
            }
            String s = String.valueOf(v).strip();
            for (String candidate : new String[] {s, s.contains(" ms") ? s.substring(0, s.indexOf(" ms")).strip() : null}) {
                if (candidate != null) {
                    try {
                        return Double.parseDouble(candidate);
                    } catch (NumberFormatException e) {
                        // try the next form
                    }
                }
            }
            return null;
        }

        /** Python's str.splitlines(): no empty last line for a final line break. */
        static List<String> splitlines(String s) {
            List<String> out = new ArrayList<>(List.of(s.split("\\r\\n|\\r|\\n", -1)));
            if (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
                out.remove(out.size() - 1);
            }
            return out;
        }

        static String rjust(String s, int width) {
            return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
        }

        /** textwrap.fill with the same indent on every line: words joined by one space, lines of at most {@code width}. */
        static String fill(String text, int width, String indent) {
            List<String> out = new ArrayList<>();
            StringBuilder line = new StringBuilder(indent);
            for (String word : text.strip().split("\\s+")) {
                if (line.length() > indent.length() && line.length() + 1 + word.length() > width) {
                    out.add(line.toString());
                    line = new StringBuilder(indent);
                }
                if (line.length() > indent.length()) {
                    line.append(' ');
                }
                line.append(word);
            }
            out.add(line.toString());
            return String.join("\n", out);
        }
    }

}
