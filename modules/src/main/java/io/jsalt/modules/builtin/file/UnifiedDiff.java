package io.jsalt.modules.builtin.file;

import java.util.ArrayList;
import java.util.List;

/**
 * The unified diff Salt's {@code file.replace} returns (Python's {@code difflib.unified_diff} with no
 * file names and three lines of context), line for line: lines are matched the way difflib's
 * SequenceMatcher matches them. Inputs too large to compare cheaply are shown as removed and added in
 * full, which is still a correct diff.
 */
public final class UnifiedDiff {

    private static final int CONTEXT = 3;
    // 50,000 x 50,000 lines: beyond that the matcher could take seconds, and a whole-file diff is as useful
    private static final long MAX_CELLS = 2_500_000_000L;

    /** A run of lines: {@code a[i1, i2)} became {@code b[j1, j2)}. */
    private record Op(char tag, int i1, int i2, int j1, int j2) {
    }

    private UnifiedDiff() {
    }

    /** The diff from {@code before} to {@code after}; empty when they are equal. */
    public static String of(String before, String after) {
        List<String> a = lines(before);
        List<String> b = lines(after);
        List<Op> ops = opcodes(a, b);
        StringBuilder out = new StringBuilder();
        for (List<Op> group : groups(ops)) {
            if (out.length() == 0) {
                out.append("--- \n+++ \n");
            }
            Op first = group.get(0);
            Op last = group.get(group.size() - 1);
            out.append("@@ -").append(range(first.i1(), last.i2())).append(" +").append(range(first.j1(), last.j2()))
                    .append(" @@\n");
            for (Op op : group) {
                if (op.tag() == '=') {
                    a.subList(op.i1(), op.i2()).forEach(line -> out.append(' ').append(line));
                } else {
                    a.subList(op.i1(), op.i2()).forEach(line -> out.append('-').append(line));
                    b.subList(op.j1(), op.j2()).forEach(line -> out.append('+').append(line));
                }
            }
        }
        return out.toString();
    }

    /** Lines with their line endings kept, as Python's readlines gives them. */
    static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                lines.add(text.substring(start, i + 1));
                start = i + 1;
            }
        }
        if (start < text.length()) {
            lines.add(text.substring(start));
        }
        return lines;
    }

    /** difflib's SequenceMatcher(None, a, b).get_opcodes(), with '!' for replace, delete and insert alike. */
    private static List<Op> opcodes(List<String> a, List<String> b) {
        List<Op> ops = new ArrayList<>();
        if ((long) a.size() * b.size() > MAX_CELLS) {
            ops.add(new Op('!', 0, a.size(), 0, b.size()));
            return ops;
        }
        int i = 0;
        int j = 0;
        for (int[] block : new SequenceMatcher(a, b).matchingBlocks()) {
            if (i < block[0] || j < block[1]) {
                ops.add(new Op('!', i, block[0], j, block[1]));
            }
            i = block[0] + block[2];
            j = block[1] + block[2];
            if (block[2] > 0) {
                ops.add(new Op('=', block[0], i, block[1], j));
            }
        }
        return ops;
    }

    /** difflib's get_grouped_opcodes: changes with up to three lines of context, close changes merged. */
    private static List<List<Op>> groups(List<Op> input) {
        List<List<Op>> groups = new ArrayList<>();
        if (input.stream().noneMatch(op -> op.tag() != '=')) {
            return groups;
        }
        List<Op> ops = new ArrayList<>(input);
        Op first = ops.get(0);
        if (first.tag() == '=') {
            ops.set(0, new Op('=', Math.max(first.i1(), first.i2() - CONTEXT), first.i2(),
                    Math.max(first.j1(), first.j2() - CONTEXT), first.j2()));
        }
        Op last = ops.get(ops.size() - 1);
        if (last.tag() == '=') {
            ops.set(ops.size() - 1, new Op('=', last.i1(), Math.min(last.i2(), last.i1() + CONTEXT),
                    last.j1(), Math.min(last.j2(), last.j1() + CONTEXT)));
        }
        List<Op> group = new ArrayList<>();
        for (Op op : ops) {
            int i1 = op.i1();
            int j1 = op.j1();
            if (op.tag() == '=' && op.i2() - op.i1() > 2 * CONTEXT) {
                group.add(new Op('=', i1, Math.min(op.i2(), i1 + CONTEXT), j1, Math.min(op.j2(), j1 + CONTEXT)));
                groups.add(group);
                group = new ArrayList<>();
                i1 = Math.max(i1, op.i2() - CONTEXT);
                j1 = Math.max(j1, op.j2() - CONTEXT);
            }
            group.add(new Op(op.tag(), i1, op.i2(), j1, op.j2()));
        }
        if (!(group.size() == 1 && group.get(0).tag() == '=')) {
            groups.add(group);
        }
        return groups;
    }

    /** difflib's _format_range_unified. */
    private static String range(int start, int stop) {
        int beginning = start + 1;
        int length = stop - start;
        if (length == 1) {
            return String.valueOf(beginning);
        }
        if (length == 0) {
            beginning--;
        }
        return beginning + "," + length;
    }
}
