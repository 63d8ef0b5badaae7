package io.jsalt.bench.report;

import java.util.ArrayList;
import java.util.List;

/** A plain-text table with a header row and right-aligned columns, for the terminal and the docs. */
public final class TextTable {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    public TextTable(String... header) {
        this.header = List.of(header);
    }

    public TextTable row(Object... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException("expected " + header.size() + " cells, got " + cells.length);
        }
        List<String> r = new ArrayList<>();
        for (Object c : cells) {
            r.add(c instanceof Double d ? format(d) : String.valueOf(c));
        }
        rows.add(r);
        return this;
    }

    static String format(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : String.format(java.util.Locale.ROOT, "%.1f", d);
    }

    /** Markdown-compatible: | a | b | with a separator line under the header. */
    public String render() {
        int[] width = new int[header.size()];
        for (int i = 0; i < width.length; i++) {
            width[i] = header.get(i).length();
            for (List<String> r : rows) {
                width[i] = Math.max(width[i], r.get(i).length());
            }
        }
        StringBuilder b = new StringBuilder();
        line(b, header, width);
        b.append('|');
        for (int w : width) {
            b.append('-').append("-".repeat(w)).append(":|");
        }
        b.append('\n');
        rows.forEach(r -> line(b, r, width));
        return b.toString();
    }

    private static void line(StringBuilder b, List<String> cells, int[] width) {
        b.append('|');
        for (int i = 0; i < width.length; i++) {
            b.append(' ').append(" ".repeat(width[i] - cells.get(i).length())).append(cells.get(i)).append(" |");
        }
        b.append('\n');
    }
}
