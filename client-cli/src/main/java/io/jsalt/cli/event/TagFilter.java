package io.jsalt.cli.event;

import io.jsalt.transport.target.Glob;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** How a listener picks events by tag, as Salt's event matchers: prefix (default), glob or regex. */
enum TagFilter {
    PREFIX, GLOB, REGEX;

    Predicate<String> compile(String pattern) {
        if (pattern == null || pattern.isEmpty()) {
            return tag -> true;
        }
        return switch (this) {
            case PREFIX -> tag -> tag.startsWith(pattern);
            case GLOB -> Glob.compile(pattern).asMatchPredicate();
            case REGEX -> regex(pattern).asPredicate();
        };
    }

    private static Pattern regex(String pattern) {
        try {
            return Pattern.compile(pattern);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("bad regular expression '" + pattern + "': " + e.getDescription());
        }
    }
}
