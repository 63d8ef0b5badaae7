package io.jsalt.master.targeting;

import io.jsalt.master.data.MinionDataCache;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.MinionKeys;
import io.jsalt.master.pillar.PillarCache;
import io.jsalt.transport.target.Decision;
import io.jsalt.transport.target.InvalidTargetException;
import io.jsalt.transport.target.MinionFacts;
import io.jsalt.transport.target.Nodegroups;
import io.jsalt.transport.target.Target;
import io.jsalt.transport.target.TargetMatcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Which accepted minions a target reaches, as Salt's CkMinions does on the master, but honest about
 * what it cannot know: a minion whose grains the master has not heard is neither expected nor left
 * out, it is undecided. The job is published to expected and undecided minions alike (each minion
 * re-checks the target with its own grains), while only the expected ones are waited for.
 *
 * <p>Pillar targets match the pillar the master last compiled for each minion ({@link PillarCache}); a minion
 * whose pillar has not been compiled since the master started is undecided for them.
 *
 * <p>Grains a minion did not sign (a salt-minion's, or anyone's with the session key under its id) may
 * put a minion in a target but never leave it out: a no-match they decide is undecided instead, unless
 * the target excludes the minion whatever its grains.
 */
public final class TargetResolver {
    private final MinionKeys keys;
    private final MinionDataCache data;
    private final Supplier<Map<String, Object>> nodegroups;
    private final PillarCache pillars;

    /**
     * @param expected  accepted minions that match, sorted
     * @param undecided accepted minions that may match, their grains unknown: publish to them too
     * @param missing   ids a list (or an {@code L@} of a compound) names that are not accepted minions
     */
    public record Resolution(String tgtType, Object tgt, List<String> expected, List<String> undecided, List<String> missing) {
        public Resolution {
            expected = List.copyOf(expected);
            undecided = List.copyOf(undecided);
            missing = List.copyOf(missing);
        }

        /** Expected then undecided: every minion the job is published to. */
        public List<String> publishTo() {
            List<String> all = new ArrayList<>(expected);
            all.addAll(undecided);
            return all;
        }
    }

    public TargetResolver(MinionKeys keys, MinionDataCache data, Map<String, Object> nodegroups) {
        this(keys, data, () -> nodegroups);
    }

    /** A resolver that reads the nodegroups on every call, so a reloaded configuration applies at once. */
    public TargetResolver(MinionKeys keys, MinionDataCache data, Supplier<Map<String, Object>> nodegroups) {
        this(keys, data, new PillarCache(), nodegroups);
    }

    /** As above, with the pillars the master compiled, for pillar targets ({@code -I}, {@code I@}). */
    public TargetResolver(MinionKeys keys, MinionDataCache data, PillarCache pillars, Supplier<Map<String, Object>> nodegroups) {
        this.keys = keys;
        this.data = data;
        this.pillars = pillars;
        this.nodegroups = nodegroups;
    }

    /**
     * @throws InvalidTargetException for a target that cannot be matched, with a message for the operator
     */
    public Resolution resolve(String tgtType, Object tgt) {
        String type = tgtType == null ? "glob" : tgtType;
        Map<String, Object> groups = nodegroups.get();
        Target published = Nodegroups.expand(type, tgt, groups == null ? Map.of() : groups);
        TargetMatcher matcher = TargetMatcher.of(published.tgtType(), published.tgt());
        List<String> accepted = keys.list(KeyState.ACCEPTED);
        List<String> expected = new ArrayList<>();
        List<String> undecided = new ArrayList<>();
        for (String id : accepted) {
            Decision d = decide(matcher, id);
            if (d == Decision.MATCH) {
                expected.add(id);
            } else if (d == Decision.UNKNOWN) {
                undecided.add(id);
            }
        }
        return new Resolution(published.tgtType(), published.tgt(), expected, undecided, missing(published, Set.copyOf(accepted)));
    }

    /**
     * Whether the target matches minion {@code id} for certain now (its key accepted, its grains known where the
     * target needs them): what {@link #resolve} would list under {@code expected}, for one minion.
     *
     * @throws InvalidTargetException for a target that cannot be matched
     */
    public boolean expects(String tgtType, Object tgt, String id) {
        return accepted(id) && decide(publishedMatcher(tgtType, tgt), id) == Decision.MATCH;
    }

    /**
     * {@link #expects} for one target and many minions: the target is expanded and compiled once, each minion's
     * key state and facts looked at per call, as {@link #expects} does.
     *
     * @throws InvalidTargetException for a target that cannot be matched
     */
    public Predicate<String> expecting(String tgtType, Object tgt) {
        TargetMatcher matcher = publishedMatcher(tgtType, tgt);
        return id -> accepted(id) && decide(matcher, id) == Decision.MATCH;
    }

    private boolean accepted(String id) {
        return keys.stateOf(id).filter(KeyState.ACCEPTED::equals).isPresent();
    }

    /** The matcher of the target as published: nodegroups expanded as they are now. */
    private TargetMatcher publishedMatcher(String tgtType, Object tgt) {
        Map<String, Object> groups = nodegroups.get();
        Target published = Nodegroups.expand(tgtType == null ? "glob" : tgtType, tgt, groups == null ? Map.of() : groups);
        return TargetMatcher.of(published.tgtType(), published.tgt());
    }

    /**
     * Whether a job with this target may have reached the accepted minion {@code id}: it matches, or its
     * grains are unknown (the job was published to it and it decided itself). For a return whose minion
     * the job did not list when it was published (a late joiner, an undecided minion).
     */
    public boolean mayReach(String tgtType, Object tgt, String id) {
        String type = tgtType == null ? "glob" : tgtType;
        Map<String, Object> groups = nodegroups.get();
        try {
            Target published = Nodegroups.expand(type, tgt, groups == null ? Map.of() : groups);
            return decide(TargetMatcher.of(published.tgtType(), published.tgt()), id) != Decision.NO_MATCH;
        } catch (InvalidTargetException e) {
            return false; // a stored target that no longer reads (e.g. a nodegroup removed since) reaches no one
        }
    }

    /**
     * Unsigned grains, and a pillar compiled from them, may put a minion in a target but never leave it out: such a
     * no-match is unknown unless the target excludes the minion without them.
     */
    private Decision decide(TargetMatcher matcher, String id) {
        Map<String, Object> grains = matcher.type().mayNeedGrains() ? data.grains(id).orElse(null) : null;
        Map<String, Object> pillar = matcher.type().mayNeedPillar() ? pillars.pillar(id).orElse(null) : null;
        Decision d = matcher.decide(new MinionFacts(id, grains, pillar));
        boolean grainsUnsure = grains != null && !data.grainsVerified(id);
        boolean pillarUnsure = pillar != null && !pillars.verified(id);
        if (d == Decision.NO_MATCH && (grainsUnsure || pillarUnsure)) {
            MinionFacts trusted = new MinionFacts(id, grainsUnsure ? null : grains, pillarUnsure ? null : pillar);
            d = matcher.decide(trusted) == Decision.NO_MATCH ? Decision.NO_MATCH : Decision.UNKNOWN;
        }
        return d;
    }

    /** Salt reports the ids of a list target, or of an L@ not preceded by "not", that are not accepted. */
    private static List<String> missing(Target t, Set<String> accepted) {
        Set<String> named = new LinkedHashSet<>();
        if ("list".equals(t.tgtType())) {
            if (t.tgt() instanceof List<?> l) {
                l.forEach(o -> named.add(String.valueOf(o).trim()));
            } else if (t.tgt() instanceof String s) {
                named.addAll(Arrays.asList(s.split(",")));
            }
        } else if ("compound".equals(t.tgtType())) {
            List<String> words = t.tgt() instanceof String s ? Arrays.asList(s.strip().split("\\s+"))
                    : ((List<?>) t.tgt()).stream().map(String::valueOf).toList();
            for (int i = 0; i < words.size(); i++) {
                String w = words.get(i);
                if (w.startsWith("L@") && (i == 0 || !words.get(i - 1).equals("not"))) {
                    named.addAll(Arrays.asList(w.substring(2).split(",")));
                }
            }
        }
        List<String> missing = new ArrayList<>();
        for (String id : named) {
            String trimmed = id.trim();
            if (!trimmed.isEmpty() && !accepted.contains(trimmed)) {
                missing.add(trimmed);
            }
        }
        return missing;
    }
}
