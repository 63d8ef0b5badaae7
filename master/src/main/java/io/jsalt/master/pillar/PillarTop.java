package io.jsalt.master.pillar;

import io.jsalt.transport.target.InvalidTargetException;
import io.jsalt.transport.target.MinionFacts;
import io.jsalt.transport.target.TargetMatcher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pillar top files of every saltenv merged into one (Salt's {@code merge_tops}): saltenv, then target, then
 * the SLS names it gives and how the target is matched ({@code - match: grain} and friends, {@code compound} when
 * none is said, as Salt's {@code confirm_top}). A later top file's entry for the same saltenv and target replaces
 * an earlier one; targets are then ordered by their {@code - order:} (0 when absent), stably.
 */
final class PillarTop {
    /** One target of a saltenv: how it matches, the SLS names (globs allowed), and whether missing ones are fine. */
    record Entry(String target, String matcher, List<String> sls, boolean ignoreMissing, int order) {}

    private final Map<String, Map<String, Entry>> bySaltenv = new LinkedHashMap<>();

    /**
     * Adds one rendered top file; its malformed parts are reported in {@code errors} and skipped.
     *
     * @param top what {@code top.sls} rendered to
     */
    void add(Map<String, Object> top, List<String> errors) {
        for (Map.Entry<String, Object> env : top.entrySet()) {
            if (env.getKey().equals("include")) {
                continue; // Salt's top-file includes are not read by jsalt (docs/pillar.md)
            }
            if (!(env.getValue() instanceof Map<?, ?> targets)) {
                errors.add("Error encountered while rendering pillar top file.");
                continue;
            }
            Map<String, Entry> entries = bySaltenv.computeIfAbsent(env.getKey(), k -> new LinkedHashMap<>());
            for (Map.Entry<?, ?> target : targets.entrySet()) {
                entries.put(String.valueOf(target.getKey()), entry(String.valueOf(target.getKey()), target.getValue()));
            }
        }
    }

    private static Entry entry(String target, Object body) {
        String matcher = "compound";
        List<String> sls = new ArrayList<>();
        boolean ignoreMissing = false;
        int order = 0;
        for (Object item : body instanceof List<?> l ? l : List.of()) {
            if (item instanceof String s) {
                if (!sls.contains(s)) {
                    sls.add(s);
                }
            } else if (item instanceof Map<?, ?> m) {
                if (m.containsKey("match")) {
                    matcher = String.valueOf(m.get("match"));
                }
                if (m.containsKey("order")) {
                    order = orderOf(m.get("order"));
                }
                if (Boolean.TRUE.equals(m.get("ignore_missing"))) {
                    ignoreMissing = true;
                }
            }
        }
        return new Entry(target, matcher, List.copyOf(sls), ignoreMissing, order);
    }

    /** Salt's int(order), 0 when it is not a number. */
    private static int orderOf(Object value) {
        if (value instanceof Number n) {
            return n.intValue();
        }
        try {
            return Integer.parseInt(String.valueOf(value).strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Salt's {@code top_matches}: for each saltenv (only {@code pillarenv} when given), the SLS names of every
     * target that matches this minion, in target order, each once. A target that cannot be matched (an unknown
     * matcher, a malformed expression) matches nothing and is reported in {@code errors}.
     */
    Map<String, List<Entry>> matching(MinionFacts minion, String pillarenv, Map<String, Object> nodegroups,
            List<String> errors) {
        Map<String, List<Entry>> matches = new LinkedHashMap<>();
        for (Map.Entry<String, Map<String, Entry>> env : bySaltenv.entrySet()) {
            if (pillarenv != null && !pillarenv.equals(env.getKey())) {
                continue;
            }
            List<Entry> sorted = new ArrayList<>(env.getValue().values());
            sorted.sort((a, b) -> Integer.compare(a.order(), b.order()));
            for (Entry e : sorted) {
                if (matches(e, minion, nodegroups, env.getKey(), errors)) {
                    matches.computeIfAbsent(env.getKey(), k -> new ArrayList<>()).add(e);
                }
            }
        }
        return matches;
    }

    /** Salt's {@code ignored_pillars}: SLS names of the saltenv's targets marked {@code ignore_missing: True}. */
    Set<String> ignoredMissing(String saltenv) {
        Set<String> ignored = new LinkedHashSet<>();
        bySaltenv.getOrDefault(saltenv, Map.of()).values().stream().filter(Entry::ignoreMissing)
                .forEach(e -> ignored.addAll(e.sls()));
        return ignored;
    }

    /** The SLS names of {@code entries}, each once, in order. */
    static List<String> slsOf(List<Entry> entries) {
        Set<String> names = new LinkedHashSet<>();
        entries.forEach(e -> names.addAll(e.sls()));
        return new ArrayList<>(names);
    }

    private static boolean matches(Entry e, MinionFacts minion, Map<String, Object> nodegroups, String saltenv,
            List<String> errors) {
        String type = e.matcher();
        if (type.equals("pillar") || type.equals("pillar_pcre") || type.equals("pillar_exact")) {
            // the pillar being compiled cannot choose its own sources
            errors.add("Pillar top file of saltenv '" + saltenv + "': target '" + e.target() + "' uses 'match: " + type
                    + "', which cannot be used while the pillar is compiled");
            return false;
        }
        try {
            return TargetMatcher.of(type, e.target(), nodegroups).matches(minion);
        } catch (InvalidTargetException ex) {
            errors.add("Pillar top file of saltenv '" + saltenv + "': target '" + e.target() + "' (match: " + type
                    + ") cannot be matched: " + ex.getMessage());
            return false;
        }
    }
}
