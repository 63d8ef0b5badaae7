package io.jsalt.modules.builtin.file;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Python's {@code difflib.SequenceMatcher} without a junk function, reduced to what a unified diff
 * needs: the matching blocks. Following its algorithm (longest match first, then recursively on both
 * sides, with "autojunk" for popular lines of long inputs) makes jsalt's diffs align exactly like Salt's.
 */
final class SequenceMatcher {

    private final List<String> a;
    private final List<String> b;
    private final Map<String, List<Integer>> b2j = new HashMap<>();

    SequenceMatcher(List<String> a, List<String> b) {
        this.a = a;
        this.b = b;
        for (int j = 0; j < b.size(); j++) {
            b2j.computeIfAbsent(b.get(j), key -> new ArrayList<>()).add(j);
        }
        if (b.size() >= 200) {
            // difflib's autojunk: a line in more than 1% of b does not seed matches
            int limit = b.size() / 100 + 1;
            b2j.values().removeIf(positions -> positions.size() > limit);
        }
    }

    /** Triples (i, j, size), a[i, i+size) == b[j, j+size), ascending, adjacent ones merged, ending with (la, lb, 0). */
    List<int[]> matchingBlocks() {
        List<int[]> blocks = new ArrayList<>();
        Deque<int[]> queue = new ArrayDeque<>();
        queue.push(new int[] {0, a.size(), 0, b.size()});
        while (!queue.isEmpty()) {
            int[] range = queue.pop();
            int[] match = longestMatch(range[0], range[1], range[2], range[3]);
            if (match[2] > 0) {
                blocks.add(match);
                if (range[0] < match[0] && range[2] < match[1]) {
                    queue.push(new int[] {range[0], match[0], range[2], match[1]});
                }
                if (match[0] + match[2] < range[1] && match[1] + match[2] < range[3]) {
                    queue.push(new int[] {match[0] + match[2], range[1], match[1] + match[2], range[3]});
                }
            }
        }
        blocks.sort((x, y) -> x[0] != y[0] ? Integer.compare(x[0], y[0]) : Integer.compare(x[1], y[1]));
        List<int[]> merged = new ArrayList<>();
        int i1 = 0;
        int j1 = 0;
        int k1 = 0;
        for (int[] block : blocks) {
            if (i1 + k1 == block[0] && j1 + k1 == block[1]) {
                k1 += block[2];
            } else {
                if (k1 > 0) {
                    merged.add(new int[] {i1, j1, k1});
                }
                i1 = block[0];
                j1 = block[1];
                k1 = block[2];
            }
        }
        if (k1 > 0) {
            merged.add(new int[] {i1, j1, k1});
        }
        merged.add(new int[] {a.size(), b.size(), 0});
        return merged;
    }

    /** difflib's find_longest_match: the longest, then earliest in a, then earliest in b, equal run. */
    private int[] longestMatch(int alo, int ahi, int blo, int bhi) {
        int besti = alo;
        int bestj = blo;
        int bestsize = 0;
        Map<Integer, Integer> j2len = new HashMap<>();
        for (int i = alo; i < ahi; i++) {
            Map<Integer, Integer> next = new HashMap<>();
            for (int j : b2j.getOrDefault(a.get(i), List.of())) {
                if (j < blo) {
                    continue;
                }
                if (j >= bhi) {
                    break;
                }
                int k = j2len.getOrDefault(j - 1, 0) + 1;
                next.put(j, k);
                if (k > bestsize) {
                    besti = i - k + 1;
                    bestj = j - k + 1;
                    bestsize = k;
                }
            }
            j2len = next;
        }
        // popular lines never seed a match, but may extend one
        while (besti > alo && bestj > blo && a.get(besti - 1).equals(b.get(bestj - 1))) {
            besti--;
            bestj--;
            bestsize++;
        }
        while (besti + bestsize < ahi && bestj + bestsize < bhi && a.get(besti + bestsize).equals(b.get(bestj + bestsize))) {
            bestsize++;
        }
        return new int[] {besti, bestj, bestsize};
    }
}
