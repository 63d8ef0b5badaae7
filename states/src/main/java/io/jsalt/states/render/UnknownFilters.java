package io.jsalt.states.render;

import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds a filter the engine does not have. Jinja2 refuses a template that uses one; Jinjava renders it as an
 * empty value without a word, which would write wrong files quietly, so templates are checked before rendering.
 */
final class UnknownFilters {
    private static final Pattern BLOCK = Pattern.compile("\\{\\{(.*?)\\}\\}|\\{%(.*?)%\\}", Pattern.DOTALL);
    private static final Pattern QUOTED = Pattern.compile("'(?:[^'\\\\]|\\\\.)*'|\"(?:[^\"\\\\]|\\\\.)*\"");
    private static final Pattern FILTER = Pattern.compile("\\|\\s*([A-Za-z_][A-Za-z0-9_]*)");

    private UnknownFilters() {
    }

    /** @throws RenderException naming the file, the line and the filter */
    static void check(String template, Predicate<String> known, String path) {
        Matcher block = BLOCK.matcher(template);
        while (block.find()) {
            String body = block.group(1) != null ? block.group(1) : block.group(2);
            // blank out string literals, keeping offsets, so a '|' inside one is not taken for a filter
            Matcher quoted = QUOTED.matcher(body);
            StringBuilder code = new StringBuilder(body);
            while (quoted.find()) {
                for (int i = quoted.start(); i < quoted.end(); i++) {
                    code.setCharAt(i, ' ');
                }
            }
            Matcher filter = FILTER.matcher(code);
            while (filter.find()) {
                if (!known.test(filter.group(1))) {
                    int line = 1 + (int) template.substring(0, block.start()).chars().filter(c -> c == '\n').count();
                    throw new RenderException("Jinja error in " + path + ": line " + line + ": no filter named '"
                            + filter.group(1) + "'");
                }
            }
        }
    }
}
