package io.jsalt.cli.jsalt;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ExitCode;

/** {@code -b/--batch-size}: a number of minions, or a percentage of the targeted ones ({@code 10%}, also {@code %10}). */
record BatchSize(double value, boolean percent) {
    static BatchSize parse(String text) {
        String t = text.strip();
        boolean percent = t.contains("%");
        try {
            double v = Double.parseDouble(percent ? t.replace("%", "") : t);
            if (!(v > 0) || Double.isInfinite(v) || (!percent && v != Math.floor(v))) {
                throw new NumberFormatException();
            }
            return new BatchSize(v, percent);
        } catch (NumberFormatException e) {
            throw new CliException(ExitCode.USAGE, "Invalid batch data sent: " + text
                    + " (data must be in the form of %10, 10% or 3, and above 0)");
        }
    }

    /** Minions per wave for {@code total} targeted minions, as Salt's get_bnum: a share under one rounds up to one. */
    int of(int total) {
        if (!percent) {
            return (int) Math.min(value, Integer.MAX_VALUE);
        }
        double share = value / 100.0 * total;
        return share < 1 ? (int) Math.ceil(share) : (int) share;
    }
}
