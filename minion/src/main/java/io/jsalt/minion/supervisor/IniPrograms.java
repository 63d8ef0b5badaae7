package io.jsalt.minion.supervisor;

import io.jsalt.config.ConfigException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Supervisor's own ini files, read as they are: every {@code *.conf} and {@code *.ini} directly in a folder
 * (the usual {@code conf.d}), and in each its {@code [program:x]} and {@code [group:x]} sections; other sections
 * ({@code [supervisord]}, {@code [eventlistener:x]}, ...) are skipped. The syntax is Python's configparser as Supervisor sets it up:
 * {@code key = value} or {@code key: value}, comments after {@code ;} or {@code #} at the start of a line or
 * after white space, indented lines continue a value.
 */
final class IniPrograms {
    private static final Logger log = LoggerFactory.getLogger(IniPrograms.class);
    /** An ini file larger than this is not a program definition. */
    private static final long MAX_FILE_BYTES = 1024 * 1024;

    private IniPrograms() {
    }

    /** The {@code [program:x]} sections of every file in {@code dir}, by file name then order; none when it is absent. */
    static Map<String, Section> read(Path dir) {
        return readAll(dir).programs();
    }

    /** The {@code [program:x]} and {@code [group:x]} sections of every file in {@code dir}. */
    static Sections readAll(Path dir) {
        Map<String, Section> programs = new LinkedHashMap<>();
        Map<String, GroupSection> groups = new LinkedHashMap<>();
        if (!Files.isDirectory(dir)) {
            return new Sections(programs, groups);
        }
        requireNotWritableByOthers(dir);
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(p -> {
                String n = p.getFileName().toString();
                return (n.endsWith(".conf") || n.endsWith(".ini")) && Files.isRegularFile(p);
            }).sorted().toList();
        } catch (IOException e) {
            throw new ConfigException(dir, "cannot list the folder: " + e.getMessage(), e);
        }
        for (Path file : files) {
            Sections found = readFile(file);
            for (Section section : found.programs().values()) {
                Section before = programs.putIfAbsent(section.program(), section);
                if (before != null) {
                    throw new ConfigException(file, "[program:" + section.program() + "]",
                            "a program name not already defined in " + before.file().getFileName(), section.program());
                }
            }
            for (GroupSection group : found.groups().values()) {
                GroupSection before = groups.putIfAbsent(group.group(), group);
                if (before != null) {
                    throw new ConfigException(file, "[group:" + group.group() + "]",
                            "a group name not already defined in " + before.file().getFileName(), group.group());
                }
            }
        }
        return new Sections(programs, groups);
    }

    /** One {@code [program:x]} section. */
    record Section(String program, Map<String, String> keys, Path file) {
    }

    /** One {@code [group:x]} section: its {@code programs} (names separated by commas), in order. */
    record GroupSection(String group, List<String> programs, Path file) {
    }

    /** The sections of one file or folder, by name. */
    record Sections(Map<String, Section> programs, Map<String, GroupSection> groups) {
    }

    /**
     * The commands in these files run as the minion's user (usually root): a file or folder others may write
     * would let them run anything, so it is refused, as sshd refuses a key file others may write.
     */
    private static void requireNotWritableByOthers(Path path) {
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(path);
            if (perms.contains(PosixFilePermission.GROUP_WRITE) || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
                throw new ConfigException(path, "writable by group or others (" + PosixFilePermissions.toString(perms)
                        + "): its programs would run as the minion's user; chmod go-w it", null);
            }
        } catch (IOException e) {
            throw new ConfigException(path, "cannot read its permissions: " + e.getMessage(), e);
        }
    }

    static Sections readFile(Path file) {
        requireNotWritableByOthers(file);
        String text;
        try {
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new ConfigException(file, "larger than " + MAX_FILE_BYTES + " bytes", null);
            }
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException(file, "cannot read: " + e.getMessage(), e);
        }
        return parseAll(text, file);
    }

    /** The {@code [program:x]} sections of one file's text. */
    static List<Section> parse(String text, Path file) {
        return List.copyOf(parseAll(text, file).programs().values());
    }

    static Sections parseAll(String text, Path file) {
        List<Section> sections = new java.util.ArrayList<>();
        Map<String, Map<String, String>> groupKeys = new LinkedHashMap<>();
        Map<String, String> current = null;
        String lastKey = null;
        int lineNo = 0;
        for (String raw : text.split("\r?\n", -1)) {
            lineNo++;
            String stripped = raw.strip();
            if (stripped.isEmpty() || stripped.startsWith(";") || stripped.startsWith("#")) {
                continue;
            }
            if (Character.isWhitespace(raw.charAt(0)) && lastKey != null && current != null) {
                current.merge(lastKey, withoutComment(stripped), (a, b) -> a + "\n" + b);
                continue;
            }
            if (stripped.startsWith("[")) {
                if (!stripped.endsWith("]")) {
                    throw new ConfigException(file, lineNo, 1, "a section header without ]", null);
                }
                String name = stripped.substring(1, stripped.length() - 1).strip();
                lastKey = null;
                if (name.startsWith("program:")) {
                    current = new LinkedHashMap<>();
                    sections.add(new Section(name.substring("program:".length()).strip(), current, file));
                } else if (name.startsWith("group:")) {
                    current = new LinkedHashMap<>();
                    if (groupKeys.putIfAbsent(name.substring("group:".length()).strip(), current) != null) {
                        throw new ConfigException(file, lineNo, 1, "a group defined once: [" + name + "]", null);
                    }
                } else {
                    log.debug("{}: section [{}] skipped (jsalt reads [program:x] sections)", file, name);
                    current = null;
                }
                continue;
            }
            int eq = firstOf(stripped, '=', ':');
            if (eq <= 0) {
                throw new ConfigException(file, lineNo, 1, "expected key = value", null);
            }
            if (current == null) {
                continue; // a key of a skipped section
            }
            lastKey = stripped.substring(0, eq).strip().toLowerCase(java.util.Locale.ROOT);
            current.put(lastKey, withoutComment(stripped.substring(eq + 1).strip()));
        }
        Map<String, Section> programs = new LinkedHashMap<>();
        for (Section section : sections) {
            if (programs.putIfAbsent(section.program(), section) != null) {
                throw new ConfigException(file, "[program:" + section.program() + "]", "a program defined once", section.program());
            }
        }
        Map<String, GroupSection> groups = new LinkedHashMap<>();
        groupKeys.forEach((group, keys) -> groups.put(group, new GroupSection(group, groupPrograms(keys, group, file), file)));
        return new Sections(programs, groups);
    }

    /** A group's {@code programs}: names separated by commas (and white space); {@code priority} and others are ignored. */
    private static List<String> groupPrograms(Map<String, String> keys, String group, Path file) {
        String list = keys.get("programs");
        if (list == null || list.isBlank()) {
            throw new ConfigException(file, "[group:" + group + "] programs", "the names of its programs, separated by commas", list);
        }
        List<String> names = new java.util.ArrayList<>();
        for (String name : list.split("[,\\s]+")) {
            if (!name.isEmpty() && !names.contains(name)) {
                names.add(name);
            }
        }
        return List.copyOf(names);
    }

    private static int firstOf(String text, char a, char b) {
        int i = text.indexOf(a);
        int j = text.indexOf(b);
        return i < 0 ? j : j < 0 ? i : Math.min(i, j);
    }

    /** configparser's inline comments: a ; or # after white space ends the value. */
    private static String withoutComment(String value) {
        for (int i = 1; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c == ';' || c == '#') && Character.isWhitespace(value.charAt(i - 1))) {
                return value.substring(0, i).strip();
            }
        }
        return value.startsWith(";") || value.startsWith("#") ? "" : value;
    }
}
