package io.jsalt.minion.supervisor;

import io.jsalt.config.ConfigException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Every process a minion supervises, from the minion config's {@code supervisor:} section and the ini files
 * in {@code supervisor_dir}, read afresh on each call (Supervisor's {@code reread}): both the ini files and
 * the config file's section, so an edit to either is applied by {@code update}. A program defined in both
 * places is refused, as is anything {@link ProgramParser} refuses: the whole read fails, nothing half-applies.
 */
final class ProgramDefinitions {
    private final Supplier<Map<String, Object>> fromConfig;
    private final Path configFile;
    private final Path iniDir;
    private final ProgramParser parser;
    /** The folder of the programs {@code supervisor.add} defined; null: none. */
    private final Path pushedDir;

    ProgramDefinitions(Map<String, Object> fromConfig, Path configFile, Path iniDir, ProgramParser parser) {
        this(() -> fromConfig, configFile, iniDir, parser, null);
    }

    /**
     * @param fromConfig the {@code supervisor:} section as the config file says now (read on each call)
     * @param pushedDir  the folder of the programs {@code supervisor.add} wrote, read after {@code iniDir}; null: none
     */
    ProgramDefinitions(Supplier<Map<String, Object>> fromConfig, Path configFile, Path iniDir, ProgramParser parser,
            Path pushedDir) {
        this.fromConfig = fromConfig;
        this.configFile = configFile;
        this.iniDir = iniDir;
        this.parser = parser;
        this.pushedDir = pushedDir;
    }

    /**
     * Checks one program's keys as {@link #read} would, writing nothing.
     *
     * @throws ConfigException naming the key at fault
     */
    List<ProgramConfig> check(String program, Map<String, String> keys, Path file) {
        return parser.parse(program, keys, file, "[program:" + program + "]", file.getParent());
    }

    /**
     * @return process name to its definition, in definition order
     * @throws ConfigException naming the file and key at fault
     */
    Map<String, ProgramConfig> read() {
        Map<String, ProgramConfig> processes = new LinkedHashMap<>();
        Map<String, Path> programs = new LinkedHashMap<>();
        for (Map.Entry<String, Object> entry : new java.util.TreeMap<>(fromConfig.get()).entrySet()) {
            String prefix = "supervisor:" + entry.getKey();
            if (!(entry.getValue() instanceof Map<?, ?> keys)) {
                throw new ConfigException(configFile, prefix, "a mapping of Supervisor's program keys", entry.getValue());
            }
            Map<String, Object> named = new LinkedHashMap<>();
            keys.forEach((k, v) -> named.put(String.valueOf(k), v));
            programs.put(entry.getKey(), configFile);
            add(processes, parser.parse(entry.getKey(), named, configFile, prefix, configFile.getParent()), configFile);
        }
        IniPrograms.Sections ini = IniPrograms.readAll(iniDir);
        List<IniPrograms.Section> sections = new ArrayList<>(ini.programs().values());
        if (pushedDir != null) {
            sections.addAll(IniPrograms.read(pushedDir).values());
        }
        for (IniPrograms.Section section : sections) {
            Path before = programs.putIfAbsent(section.program(), section.file());
            if (before != null) {
                throw new ConfigException(section.file(), "[program:" + section.program() + "]",
                        "a program not already defined in " + before, section.program());
            }
            add(processes, parser.parse(section.program(), section.keys(), section.file(),
                    "[program:" + section.program() + "]", section.file().getParent()), section.file());
        }
        return ini.groups().isEmpty() ? processes : grouped(processes, ini.groups().values(), programs.keySet());
    }

    /**
     * Supervisor's {@code [group:x]}: the processes of the programs it names are in group x (shown as
     * {@code x:name}, started and stopped together as {@code x:}), no longer each in its program's own group. A
     * group naming a program that is not defined, a program in two groups, or a group named as another program
     * is refused.
     */
    private static Map<String, ProgramConfig> grouped(Map<String, ProgramConfig> processes,
            java.util.Collection<IniPrograms.GroupSection> groups, java.util.Set<String> programs) {
        Map<String, String> groupOf = new LinkedHashMap<>();
        for (IniPrograms.GroupSection g : groups) {
            String where = "[group:" + g.group() + "]";
            if (!ProgramParser.isName(g.group())) {
                throw new ConfigException(g.file(), where, "a group name of letters, digits and _ . @ -", g.group());
            }
            if (programs.contains(g.group()) && !g.programs().equals(List.of(g.group()))) {
                throw new ConfigException(g.file(), where, "a group name that is no program's", g.group());
            }
            for (String program : g.programs()) {
                if (!programs.contains(program)) {
                    throw new ConfigException(g.file(), where + " programs", "programs defined in a [program:x] section",
                            program);
                }
                String before = groupOf.putIfAbsent(program, g.group());
                if (before != null) {
                    throw new ConfigException(g.file(), where + " programs", "a program in one group only (it is in "
                            + before + ")", program);
                }
            }
        }
        Map<String, ProgramConfig> out = new LinkedHashMap<>();
        processes.forEach((name, c) -> {
            String group = groupOf.get(c.group());
            out.put(name, group == null ? c : c.withGroup(group));
        });
        return out;
    }

    private static void add(Map<String, ProgramConfig> processes, Iterable<ProgramConfig> found, Path file) {
        for (ProgramConfig process : found) {
            ProgramConfig before = processes.putIfAbsent(process.name(), process);
            if (before != null) {
                throw new ConfigException(file, process.group() + " process_name",
                        "a process name not already used by program " + before.group(), process.name());
            }
        }
    }
}
