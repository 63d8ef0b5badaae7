package io.jsalt.modules.builtin.system;

import java.util.ArrayList;
import java.util.List;

/** One line of /proc/self/mounts. */
public record Mount(String device, String mountPoint, String fsType, String options) {

    /** Parses the mount table; the kernel escapes spaces and the like as octal ({@code \040}). */
    public static List<Mount> parseTable(String text) {
        List<Mount> mounts = new ArrayList<>();
        for (String line : text.split("\n")) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length >= 4) {
                mounts.add(new Mount(unescape(fields[0]), unescape(fields[1]), fields[2], fields[3]));
            }
        }
        return mounts;
    }

    static String unescape(String field) {
        StringBuilder out = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && isOctal(field, i + 1)) {
                out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean isOctal(String text, int from) {
        if (from + 3 > text.length()) {
            return false;
        }
        for (int i = from; i < from + 3; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '7') {
                return false;
            }
        }
        return true;
    }
}
