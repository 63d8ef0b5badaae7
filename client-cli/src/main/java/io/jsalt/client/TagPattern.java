package io.jsalt.client;

import io.jsalt.transport.target.Glob;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Which events a subscription delivers, by tag, as Salt's event matchers: a prefix (Salt's default), a
 * shell glob (fnmatch: {@code salt/job/*}{@code /ret/*}) or a regular expression matched from the start of
 * the tag (Salt's {@code re.match}), so a minion's own tag {@code x/salt/job/<jid>/ret/m2} never matches a
 * listener for {@code salt/job/.../ret/m2}.
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
     * Tags whose beginning matches the regular expression (Salt's {@code re.match}: anchored at the start,
     * not at the end; end it with {@code $} to match the whole tag).
     *
     * @throws IllegalArgumentException when it is not a valid regular expression
     */
    public static TagPattern regex(String regex) {
        try {
            return new TagPattern("regex " + regex, matchFromStart(Pattern.compile(regex)));
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("bad regular expression '" + regex + "': " + e.getDescription());
        }
    }

    private static Predicate<String> matchFromStart(Pattern pattern) {
        return tag -> pattern.matcher(tag).lookingAt();
    }

    public boolean matches(String tag) {
        return predicate.test(tag);
    }

    @Override
    public String toString() {
        return description;
    }
}
