package io.jsalt.config;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * libpq's {@code keyword = value} connection strings: pairs separated by spaces, a value in single quotes
 * when it holds spaces, {@code \'} and {@code \\} escaped. The URI form is not taken (a password in a URI
 * needs percent-encoding, which operators get wrong).
 */
final class ConnectionString {
    private ConnectionString() {
    }

    /** The pairs in order; an error message never repeats a value, which may be a password. */
    static Map<String, String> parse(String text) {
        if (text.startsWith("postgresql://") || text.startsWith("postgres://")) {
            throw new IllegalArgumentException("the keyword=value form, not a URI");
        }
        Map<String, String> out = new LinkedHashMap<>();
        int i = 0;
        int n = text.length();
        while (true) {
            i = skipSpaces(text, i);
            if (i >= n) {
                return out;
            }
            int start = i;
            while (i < n && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) {
                i++;
            }
            String keyword = text.substring(start, i);
            i = skipSpaces(text, i);
            if (keyword.isEmpty() || i >= n || text.charAt(i) != '=') {
                throw new IllegalArgumentException("keyword=value expected at character " + (start + 1));
            }
            i = skipSpaces(text, i + 1);
            StringBuilder value = new StringBuilder();
            if (i < n && text.charAt(i) == '\'') {
                i++;
                while (true) {
                    if (i >= n) {
                        throw new IllegalArgumentException("unterminated quoted value of " + keyword);
                    }
                    char c = text.charAt(i++);
                    if (c == '\'') {
                        break;
                    }
                    if (c == '\\' && i < n) {
                        c = text.charAt(i++);
                    }
                    value.append(c);
                }
            } else {
                while (i < n && !Character.isWhitespace(text.charAt(i))) {
                    char c = text.charAt(i++);
                    if (c == '\\' && i < n) {
                        c = text.charAt(i++);
                    }
                    value.append(c);
                }
            }
            if (out.put(keyword, value.toString()) != null) {
                throw new IllegalArgumentException(keyword + " given twice");
            }
        }
    }

    private static int skipSpaces(String text, int i) {
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return i;
    }
}
