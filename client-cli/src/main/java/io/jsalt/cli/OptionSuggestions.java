package io.jsalt.cli;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The options a mistyped one was most likely meant to be: those within two edits (a transposed pair counts as
 * one, so {@code --tiemout} finds {@code --timeout}) of what was typed, closest first, at most three.
 */
final class OptionSuggestions {
    private static final int MAX_EDITS = 2;
    private static final int MAX_SUGGESTIONS = 3;

    private OptionSuggestions() {}

    static List<String> near(String typed, Collection<String> options) {
        int eq = typed.indexOf('=');
        String name = eq > 0 ? typed.substring(0, eq) : typed;
        boolean longForm = name.startsWith("--");
        return options.stream()
                .filter(o -> o.startsWith("--") == longForm)
                .filter(o -> distance(name, o) <= MAX_EDITS)
                .sorted(Comparator.comparingInt((String o) -> distance(name, o)).thenComparing(Comparator.naturalOrder()))
                .limit(MAX_SUGGESTIONS)
                .toList();
    }

    /** Edits (insert, delete, replace, swap two neighbours) from a to b: the optimal string alignment distance. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
