package io.jsalt.transport.target;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * Decides whether a minion is targeted, by its id and, for grain, ipcidr, pillar and compound targets, its
 * grains or pillar. The master uses it to resolve the expected minions (where grains may be unknown: {@link
 * Decision#UNKNOWN}), and each minion re-checks every publication with its own grains (it never trusts
 * the master's list alone).
 */
public final class TargetMatcher {
    private final TargetType type;
    private final Criterion criterion;

    private TargetMatcher(TargetType type, Criterion criterion) {
        this.type = type;
        this.criterion = criterion;
    }

    /**
     * A matcher without nodegroups, as a minion has: {@code N@} and {@code nodegroup} targets are refused.
     *
     * @throws InvalidTargetException for an unknown tgt_type, a bad regular expression, a malformed
     *     compound expression or a target of the wrong shape
     */
    public static TargetMatcher of(String tgtType, Object tgt) {
        return of(tgtType, tgt, Map.of());
    }

    /** As {@link #of(String, Object)}, expanding nodegroups and {@code N@} from {@code nodegroups}. */
    public static TargetMatcher of(String tgtType, Object tgt, Map<String, Object> nodegroups) {
        TargetType type = TargetType.fromWire(tgtType == null ? "glob" : tgtType)
                .orElseThrow(() -> new InvalidTargetException("unsupported target type: " + tgtType));
        Criterion criterion = switch (type) {
            case GLOB -> Criterion.idGlob(requireString(tgt, type));
            case PCRE -> Criterion.idRegex(compileRegex(requireString(tgt, type)));
            case LIST -> Criterion.idIn(listOf(tgt));
            case GRAIN -> new GrainCriterion(requireString(tgt, type), ":", false);
            case GRAIN_PCRE -> new GrainCriterion(requireString(tgt, type), ":", true);
            case IPCIDR -> new CidrCriterion(requireString(tgt, type));
            case PILLAR -> new GrainCriterion(requireString(tgt, type), ":", false, true);
            case PILLAR_PCRE -> new GrainCriterion(requireString(tgt, type), ":", true, true);
            case COMPOUND, NODEGROUP -> {
                if (type == TargetType.NODEGROUP) {
                    requireString(tgt, type);
                }
                Target expanded = Nodegroups.expand(type.wireName(), tgt, nodegroups);
                yield CompoundParser.parse(CompoundParser.words(expanded.tgt()));
            }
        };
        return new TargetMatcher(type, criterion);
    }

    public TargetType type() {
        return type;
    }

    public Decision decide(MinionFacts facts) {
        return criterion.decide(facts);
    }

    public boolean matches(MinionFacts facts) {
        return decide(facts) == Decision.MATCH;
    }

    /** Whether the id alone is targeted: a target that needs grains does not match without them. */
    public boolean matches(String minionId) {
        return matches(MinionFacts.idOnly(minionId));
    }

    /** The ids matched by their id alone, sorted. */
    public List<String> filter(Collection<String> minionIds) {
        return minionIds.stream().filter(this::matches).sorted().collect(Collectors.toList());
    }

    private static String requireString(Object tgt, TargetType type) {
        if (!(tgt instanceof String s) || s.isEmpty()) {
            throw new InvalidTargetException(type.wireName() + " target must be a non-empty string");
        }
        return s;
    }

    static Pattern compileRegex(String regex) {
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
