package io.jsalt.minion.supervisor;

import io.jsalt.config.ConfigException;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code supervisor.add} and {@code supervisor.remove}: programs pushed from the master, checked, written to the
 * minion's own folder ({@link PushedPrograms}) and applied one program at a time; a definition that fails to
 * apply puts the folder back as it was. Called under the supervisor's lock, as its {@code update} is.
 */
final class ProgramPushes {
    private static final Logger log = LoggerFactory.getLogger(ProgramPushes.class);

    /** What this needs from the supervisor: apply the changes of some groups, and say whether a group is active. */
    interface Groups {
        List<String> update(Map<String, ProgramConfig> read, Predicate<String> only);

        boolean active(String group);
    }

    /** Null: add with keys and remove are refused. */
    private final PushedPrograms pushed;
    private final ProgramDefinitions definitions;
    private final Groups groups;

    ProgramPushes(PushedPrograms pushed, ProgramDefinitions definitions, Groups groups) {
        this.pushed = pushed;
        this.definitions = definitions;
        this.groups = groups;
    }

    /**
     * Salt's {@code supervisord.add}: with keys, defines program {@code name} (Supervisor's program keys, e.g.
     * {@code command}), writes it to the minion's own folder of added programs, where every start reads it
     * again, and applies it (started with {@code autostart}; an added program given again with other keys is
     * restarted, with the same keys it is not touched). Without keys, Supervisor's {@code add}: applies a program
     * already defined (in the config or {@code supervisor_dir}) but not yet active. Nothing else is touched.
     *
     * @throws IllegalArgumentException for a bad name or key, or a program defined elsewhere: nothing changes
     * @throws ConfigException          for a value the program cannot have: nothing changes
     */
    List<String> add(String name, Map<String, ?> keys) {
        PushedPrograms.requireName(name);
        if (keys.isEmpty()) {
            Map<String, ProgramConfig> read = definitions.read();
            if (read.values().stream().noneMatch(c -> c.group().equals(name))) {
                return List.of(name + ": ERROR (no such process)");
            }
            List<String> lines = groups.update(read, name::equals);
            return lines.isEmpty() ? List.of(name + ": ERROR (already active)") : lines;
        }
        if (pushed == null) {
            throw new IllegalArgumentException("this supervisor keeps no added programs");
        }
        Map<String, String> checked = PushedPrograms.checked(keys);
        if (!checked.containsKey("command")) {
            throw new IllegalArgumentException("command: required");
        }
        definitions.check(name, checked, pushed.file(name)); // refused here: no file is written
        String before = pushed.read(name);
        if (before == null && definitions.read().values().stream().anyMatch(c -> c.group().equals(name))) {
            throw new IllegalArgumentException(name + ": already defined in the minion config or supervisor_dir: change it there");
        }
        pushed.write(name, checked);
        Map<String, ProgramConfig> read;
        try {
            read = definitions.read();
        } catch (RuntimeException e) {
            pushed.restore(name, before); // another definition is broken: change nothing
            throw e;
        }
        log.info("program {} added by supervisor.add ({})", name, pushed.file(name));
        List<String> lines = groups.update(read, name::equals);
        return lines.isEmpty() ? List.of(name + ": unchanged") : lines;
    }

    /**
     * Salt's {@code supervisord.remove}, for a program {@code supervisor.add} defined: stops it, deletes its file
     * and removes it. A program defined in the config or {@code supervisor_dir} is refused (it would come back at
     * the next update): remove it there and run update.
     */
    List<String> remove(String name) {
        PushedPrograms.requireName(name);
        if (pushed == null || !pushed.has(name)) {
            boolean active = groups.active(name);
            return List.of(name + (active ? ": ERROR (not added by supervisor.add: remove it from the minion config or "
                    + "supervisor_dir, then run supervisor.update)" : ": ERROR (no such process)"));
        }
        String before = pushed.read(name);
        pushed.delete(name);
        Map<String, ProgramConfig> read;
        try {
            read = definitions.read();
        } catch (RuntimeException e) {
            pushed.restore(name, before);
            throw e;
        }
        log.info("program {} removed by supervisor.remove", name);
        return groups.update(read, name::equals);
    }
}
