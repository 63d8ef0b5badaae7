package io.jsalt.states.render;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Python's string literals inside Jinja blocks, for Jinjava's lexer: Jinja2 keeps an unknown escape as written
 * ({@code '\s+'} is backslash-s-plus, which every regex filter call relies on) and reads {@code \x41},
 * {@code \u00e9}, {@code \a}, {@code \v} and octal escapes; Jinjava knows only {@code \n \t \r \b \f \\ \' \"} and
 * refuses the rest. So literals are rewritten before Jinjava reads them: an unknown escape gets its backslash
 * doubled, a Python-only escape becomes its character. Text outside blocks, and {@code raw} blocks, stay as written.
 */
final class PythonEscapes {
    private static final Pattern BLOCK = Pattern.compile("\\{%-?\\s*raw\\s*-?%\\}.*?\\{%-?\\s*endraw\\s*-?%\\}"
            + "|\\{\\{.*?\\}\\}|\\{%.*?%\\}", Pattern.DOTALL);
    private static final Pattern QUOTED = Pattern.compile("'(?:[^'\\\\]|\\\\.)*'|\"(?:[^\"\\\\]|\\\\.)*\"",
            Pattern.DOTALL);
    private static final String JINJAVA_ESCAPES = "ntrbf\\'\"";

    private PythonEscapes() {
    }

    /** @throws IllegalArgumentException for an escape Python refuses ({@code \\U} beyond the last code point) */
    static String rewrite(String template) {
        if (template.indexOf('\\') < 0) {
            return template; // the common case costs one scan
        }
        Matcher block = BLOCK.matcher(template);
        StringBuilder out = new StringBuilder();
        int last = 0;
        while (block.find()) {
            String text = block.group();
            if (text.startsWith("{%") && text.matches("(?s)\\{%-?\\s*raw.*")) {
                continue;
            }
            out.append(template, last, block.start()).append(literals(text));
            last = block.end();
        }
        return out.append(template, last, template.length()).toString();
    }

    private static String literals(String block) {
        if (block.indexOf('\\') < 0) {
            return block;
        }
        Matcher quoted = QUOTED.matcher(block);
        StringBuilder out = new StringBuilder();
        int last = 0;
        while (quoted.find()) {
            out.append(block, last, quoted.start()).append(literal(quoted.group()));
            last = quoted.end();
        }
        return out.append(block, last, block.length()).toString();
    }

    private static String literal(String q) {
        char quote = q.charAt(0);
        StringBuilder out = new StringBuilder().append(quote);
        for (int i = 1; i < q.length() - 1; i++) {
            char c = q.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char n = q.charAt(++i);
            if (JINJAVA_ESCAPES.indexOf(n) >= 0) {
                out.append('\\').append(n);
                continue;
            }
            int code = -1;
            int end = i;
            if (n == 'a') {
                code = 7;
            } else if (n == 'v') {
                code = 11;
            } else if ((n == 'x' || n == 'u' || n == 'U') && hex(q, i + 1, n == 'x' ? 2 : n == 'u' ? 4 : 8)) {
                end = i + (n == 'x' ? 2 : n == 'u' ? 4 : 8);
                long value = Long.parseLong(q.substring(i + 1, end + 1), 16);
                if (value > Character.MAX_CODE_POINT) {
                    // Python refuses it too (a SyntaxError): no character has that code
                    throw new IllegalArgumentException("illegal Unicode character in a string literal: \\" + q.substring(i, end + 1));
                }
                code = (int) value;
            } else if (n >= '0' && n <= '7') {
                while (end + 1 < q.length() - 1 && end - i < 2 && q.charAt(end + 1) >= '0' && q.charAt(end + 1) <= '7') {
                    end++;
                }
                code = Integer.parseInt(q.substring(i, end + 1), 8);
            }
            if (code < 0) {
                out.append("\\\\").append(n); // Python keeps the backslash of an escape it does not know
            } else {
                String ch = new String(Character.toChars(code));
                out.append(ch.equals("\\") || ch.equals("'") || ch.equals("\"") ? "\\" + ch : ch);
                i = end;
            }
        }
        return out.append(quote).toString();
    }

    private static boolean hex(String s, int from, int count) {
        if (from + count > s.length() - 1) {
            return false;
        }
        for (int i = from; i < from + count; i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }
}
