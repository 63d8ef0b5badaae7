package io.jsalt.transport.target;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** One compiled condition on a minion, from a simple target or a node of a compound expression. */
interface Criterion {
    Decision decide(MinionFacts facts);

    /** fnmatch over the id, as Salt's glob matcher. */
    static Criterion idGlob(String glob) {
        Pattern p = Glob.compile(glob);
        return facts -> Decision.of(p.matcher(facts.id()).matches());
    }

    /** Salt uses re.match: anchored at the start only. */
    static Criterion idRegex(Pattern regex) {
        return facts -> Decision.of(regex.matcher(facts.id()).lookingAt()); // ids are at most 255 characters
    }

    static Criterion idIn(List<String> ids) {
        Set<String> set = Set.copyOf(ids);
        return facts -> Decision.of(set.contains(facts.id()));
    }

    /** Every part must match; evaluated iteratively so a long flat chain costs no stack. */
    record All(List<Criterion> parts) implements Criterion {
        @Override
        public Decision decide(MinionFacts facts) {
            Decision d = Decision.MATCH;
            for (Criterion c : parts) {
                d = d.and(c.decide(facts));
                if (d == Decision.NO_MATCH) {
                    return d;
                }
            }
            return d;
        }
    }

    record Any(List<Criterion> parts) implements Criterion {
        @Override
        public Decision decide(MinionFacts facts) {
            Decision d = Decision.NO_MATCH;
            for (Criterion c : parts) {
                d = d.or(c.decide(facts));
                if (d == Decision.MATCH) {
                    return d;
                }
            }
            return d;
        }
    }

    record Not(Criterion inner) implements Criterion {
        @Override
        public Decision decide(MinionFacts facts) {
            return inner.decide(facts).not();
        }
    }
}
