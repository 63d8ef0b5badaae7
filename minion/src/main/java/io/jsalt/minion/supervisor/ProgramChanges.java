package io.jsalt.minion.supervisor;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What differs, program by program (Supervisor's groups), between the processes running and the definitions
 * as read now: the heart of {@code reread} and {@code update}.
 */
record ProgramChanges(Set<String> added, Set<String> changed, Set<String> removed) {

    static ProgramChanges between(Map<String, ProgramConfig> current, Map<String, ProgramConfig> read) {
        Set<String> before = groups(current);
        Set<String> after = groups(read);
        Set<String> added = new TreeSet<>(after);
        added.removeAll(before);
        Set<String> removed = new TreeSet<>(before);
        removed.removeAll(after);
        Set<String> changed = new TreeSet<>();
        for (String group : after) {
            if (before.contains(group) && !sameGroup(group, current, read)) {
                changed.add(group);
            }
        }
        return new ProgramChanges(added, changed, removed);
    }

    private static Set<String> groups(Map<String, ProgramConfig> processes) {
        Set<String> groups = new LinkedHashSet<>();
        processes.values().forEach(p -> groups.add(p.group()));
        return groups;
    }

    private static boolean sameGroup(String group, Map<String, ProgramConfig> current, Map<String, ProgramConfig> read) {
        Map<String, ProgramConfig> a = ofGroup(group, current);
        Map<String, ProgramConfig> b = ofGroup(group, read);
        if (!a.keySet().equals(b.keySet())) {
            return false;
        }
        return a.entrySet().stream().allMatch(e -> e.getValue().sameAs(Objects.requireNonNull(b.get(e.getKey()))));
    }

    private static Map<String, ProgramConfig> ofGroup(String group, Map<String, ProgramConfig> processes) {
        Map<String, ProgramConfig> out = new java.util.TreeMap<>();
        processes.forEach((n, p) -> {
            if (p.group().equals(group)) {
                out.put(n, p);
            }
        });
        return out;
    }

    /** The changes of the groups {@code keep} accepts only. */
    ProgramChanges only(java.util.function.Predicate<String> keep) {
        return new ProgramChanges(kept(added, keep), kept(changed, keep), kept(removed, keep));
    }

    private static Set<String> kept(Set<String> groups, java.util.function.Predicate<String> keep) {
        Set<String> out = new java.util.LinkedHashSet<>(groups);
        out.removeIf(keep.negate());
        return out;
    }
}
