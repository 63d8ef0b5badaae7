package io.jsalt.transport.target;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * Decides whether a minion id is targeted. The master uses it to resolve the expected minions, and each
 * minion re-checks every publication with it (it never trusts the master's list alone).
 */
public final class TargetMatcher {
    private final TargetType type;
    private final Pattern pattern;
    private final List<String> ids;

    private TargetMatcher(TargetType type, Pattern pattern, List<String> ids) {
        this.type = type;
        this.pattern = pattern;
        this.ids = ids;
    }

    /**
     * @throws InvalidTargetException for an unknown tgt_type, a bad regular expression or a target of
     *     the wrong shape
     */
    public static TargetMatcher of(String tgtType, Object tgt) {
        TargetType type = TargetType.fromWire(tgtType == null ? "glob" : tgtType)
                .orElseThrow(() -> new InvalidTargetException("unsupported target type: " + tgtType));
        return switch (type) {
            case GLOB -> new TargetMatcher(type, Glob.compile(requireString(tgt, type)), null);
            case PCRE -> new TargetMatcher(type, compileRegex(requireString(tgt, type)), null);
            case LIST -> new TargetMatcher(type, null, listOf(tgt));
        };
    }

    public boolean matches(String minionId) {
        return switch (type) {
            case GLOB -> pattern.matcher(minionId).matches();
            case PCRE -> pattern.matcher(minionId).lookingAt(); // Salt uses re.match: anchored at the start only
            case LIST -> ids.contains(minionId);
        };
    }

    public List<String> filter(Collection<String> minionIds) {
        return minionIds.stream().filter(this::matches).sorted().collect(Collectors.toList());
    }

    private static String requireString(Object tgt, TargetType type) {
        if (!(tgt instanceof String s) || s.isEmpty()) {
            throw new InvalidTargetException(type.wireName() + " target must be a non-empty string");
        }
        return s;
    }

    private static Pattern compileRegex(String regex) {
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new InvalidTargetException("bad regular expression '" + regex + "': " + e.getDescription());
        }
    }

    private static List<String> listOf(Object tgt) {
        if (tgt instanceof String s) {
            return Arrays.stream(s.split(",")).map(String::trim).filter(x -> !x.isEmpty()).toList();
        }
        if (tgt instanceof List<?> l) {
            return l.stream().map(Objects::toString).toList();
        }
        throw new InvalidTargetException("list target must be a list or a comma-separated string");
    }
}
