package io.jsalt.cli.event;

import io.jsalt.client.TagPattern;
import java.util.function.Predicate;

/** How a listener picks events by tag, as Salt's event matchers: prefix (default), glob or regex. */
enum TagFilter {
    PREFIX, GLOB, REGEX;

    /** @throws IllegalArgumentException for a bad regular expression */
    Predicate<String> compile(String pattern) {
        if (pattern == null || pattern.isEmpty()) {
            return tag -> true;
        }
        TagPattern p = switch (this) {
            case PREFIX -> TagPattern.prefix(pattern);
            case GLOB -> TagPattern.glob(pattern);
            case REGEX -> TagPattern.regex(pattern);
        };
        return p::matches;
    }
}
