package io.jsalt.minion.supervisor;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Supervisor's {@code environment=A="1",B="x,y",C=plain}: pairs separated by commas outside quotes, values
 * optionally in double or single quotes (Supervisor reads them with shlex).
 */
final class EnvironmentList {
    private EnvironmentList() {
    }

    /** @throws IllegalArgumentException for a pair without '=' or an unclosed quote */
    static Map<String, String> parse(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        StringBuilder key = new StringBuilder();
        StringBuilder value = new StringBuilder();
        boolean inValue = false;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    value.append(c);
                }
            } else if (inValue && (c == '"' || c == '\'')) {
                quote = c;
            } else if (c == ',') {
                put(out, key, value, inValue);
                key.setLength(0);
                value.setLength(0);
                inValue = false;
            } else if (c == '=' && !inValue) {
                inValue = true;
            } else if (inValue) {
                value.append(c);
            } else {
                key.append(c);
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("unclosed quote");
        }
        put(out, key, value, inValue);
        return out;
    }

    private static void put(Map<String, String> out, StringBuilder key, StringBuilder value, boolean inValue) {
        String name = key.toString().strip();
        if (name.isEmpty() && !inValue && value.length() == 0) {
            return; // a trailing comma
        }
        if (!inValue || name.isEmpty()) {
            throw new IllegalArgumentException("not a KEY=value pair: " + name);
        }
        out.put(name, value.toString().strip());
    }
}
