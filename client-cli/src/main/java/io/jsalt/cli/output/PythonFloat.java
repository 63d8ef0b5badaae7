package io.jsalt.cli.output;

import java.math.BigDecimal;

/** Prints a double as Python's repr does, so jsalt's output reads as Salt's (12345678.9, 1e+16, 0.0001). */
final class PythonFloat {
    private PythonFloat() {}

    static String repr(double d) {
        if (Double.isNaN(d)) {
            return "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        double abs = Math.abs(d);
        if (abs != 0 && (abs < 1e-4 || abs >= 1e16)) {
            // shortest digits (Java's toString) in Python's exponent form: 1.5e+16, 1e-05
            String[] parts = Double.toString(d).split("E");
            String mantissa = parts[0].endsWith(".0") ? parts[0].substring(0, parts[0].length() - 2) : parts[0];
            int exp = Integer.parseInt(parts[1]);
            return mantissa + "e" + (exp < 0 ? "-" : "+") + String.format("%02d", Math.abs(exp));
        }
        String plain = new BigDecimal(Double.toString(d)).toPlainString();
        if (!plain.contains(".")) {
            return plain + ".0";
        }
        plain = plain.replaceAll("0+$", "");
        return plain.endsWith(".") ? plain + "0" : plain;
    }
}
