package io.jsalt.config;

/** How an allowed range reads in a message: "1..65535", ">= 0", "> 0". */
final class Ranges {
    private Ranges() {
    }

    static String describe(long min, long max) {
        if (max == Integer.MAX_VALUE || max == Long.MAX_VALUE) {
            return ">= " + min;
        }
        return min + ".." + max;
    }

    static String describe(double min, double max) {
        if (max == Double.MAX_VALUE) {
            return ">= " + plain(min);
        }
        return plain(min) + ".." + plain(max);
    }

    /** 86400.0 reads as 86400; 0.5 stays 0.5. */
    static String plain(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        return Double.toString(d);
    }
}
