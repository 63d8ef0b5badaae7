package io.jsalt.bench.scenario;

/** Counts of instants per whole second. */
final class PerSecond {
    private PerSecond() {
    }

    /** The largest number of the instants (epoch ms, any order) that fall in one sliding 1-second window. */
    static int peak(long[] epochMs) {
        long[] v = epochMs.clone();
        java.util.Arrays.sort(v);
        int best = 0;
        int start = 0;
        for (int end = 0; end < v.length; end++) {
            while (v[end] - v[start] >= 1000) {
                start++;
            }
            best = Math.max(best, end - start + 1);
        }
        return best;
    }
}
