package io.jsalt.client;

import io.jsalt.transport.target.Glob;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Which events a subscription delivers, by tag, as Salt's event matchers: a prefix (Salt's default), a
 * shell glob (fnmatch: {@code salt/job/*}{@code /ret/*}) or a regular expression found anywhere in the tag.
 */
public final class TagPattern {
    private final String description;
    private final Predicate<String> predicate;

    private TagPattern(String description, Predicate<String> predicate) {
        this.description = description;
        this.predicate = predicate;
    }

    /** Every event. */
    public static TagPattern any() {
        return new TagPattern("any", tag -> true);
    }

    /** Tags that start with {@code prefix}; an empty prefix matches every tag. */
    public static TagPattern prefix(String prefix) {
        return new TagPattern("prefix " + prefix, tag -> tag.startsWith(prefix));
    }

    /** Tags the whole of which match the shell pattern ({@code *}, {@code ?}, {@code [seq]}, {@code [!seq]}). */
    public static TagPattern glob(String glob) {
        return new TagPattern("glob " + glob, Glob.compile(glob).asMatchPredicate());
    }

    /**
     * Tags in which the regular expression is found.
     *
     * @throws IllegalArgumentException when it is not a valid regular expression
     */
    public static TagPattern regex(String regex) {
        try {
            return new TagPattern("regex " + regex, Pattern.compile(regex).asPredicate());
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("bad regular expression '" + regex + "': " + e.getDescription());
        }
    }

    public boolean matches(String tag) {
        return predicate.test(tag);
    }

    @Override
    public String toString() {
        return description;
    }
}
