package io.jsalt.minion.supervisor;

import java.util.List;
import java.util.Map;

/** How supervisorctl names processes, resolved against a supervisor's processes. */
final class ProcessNames {
    private ProcessNames() {
    }

    /**
     * supervisorctl's names: {@code all}, a process name, a group name ({@code web}, {@code web:}, {@code web:*})
     * for all its processes, {@code group:process}.
     */
    static List<SupervisedProcess> select(Map<String, SupervisedProcess> processes, String name) {
        if (name == null || name.equals("all")) {
            return byPriority(processes.values());
        }
        String group = name.endsWith(":*") ? name.substring(0, name.length() - 2)
                : name.endsWith(":") ? name.substring(0, name.length() - 1) : null;
        if (group == null && name.contains(":")) {
            int colon = name.indexOf(':');
            SupervisedProcess p = processes.get(name.substring(colon + 1));
            return p != null && p.config().group().equals(name.substring(0, colon)) ? List.of(p) : List.of();
        }
        SupervisedProcess exact = group == null ? processes.get(name) : null;
        if (exact != null) {
            return List.of(exact);
        }
        String g = group == null ? name : group;
        return byPriority(processes.values().stream().filter(p -> p.config().group().equals(g)).toList());
    }

    /** Supervisor's start order: lowest {@code priority} first, then as defined. */
    static List<SupervisedProcess> byPriority(java.util.Collection<SupervisedProcess> processes) {
        return processes.stream().sorted(java.util.Comparator.comparingInt(p -> p.config().priority())).toList();
    }
}
