package io.jsalt.master.runner;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Orders version strings as {@code manage.versions} needs them: by their dotted numbers ({@code 0.1.0},
 * {@code 0.1.0-SNAPSHOT}: a suffix does not count), as Salt's SaltStackVersion compares major and minor.
 */
final class VersionComparison {
    private static final Pattern NUMBERS = Pattern.compile("^(\\d+(?:\\.\\d+)*)");

    private VersionComparison() {}

    /** Negative, zero or positive as {@code a} is older, the same or newer than {@code b}; empty when either has no numbers. */
    static java.util.OptionalInt compare(String a, String b) {
        List<Long> x = numbers(a);
        List<Long> y = numbers(b);
        if (x.isEmpty() || y.isEmpty()) {
            return java.util.OptionalInt.empty();
        }
        for (int i = 0; i < Math.max(x.size(), y.size()); i++) {
            long p = i < x.size() ? x.get(i) : 0;
            long q = i < y.size() ? y.get(i) : 0;
            if (p != q) {
                return java.util.OptionalInt.of(Long.compare(p, q));
            }
        }
        return java.util.OptionalInt.of(0);
    }

    private static List<Long> numbers(String version) {
        List<Long> out = new ArrayList<>();
        Matcher m = NUMBERS.matcher(version == null ? "" : version.strip());
        if (m.find()) {
            for (String part : m.group(1).split("\\.")) {
                try {
                    out.add(Long.parseLong(part));
                } catch (NumberFormatException e) {
                    return List.of(); // more digits than a long: not a version to compare
                }
            }
        }
        return out;
    }
}
