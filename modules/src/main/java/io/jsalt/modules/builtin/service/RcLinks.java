package io.jsalt.modules.builtin.service;

import io.jsalt.modules.api.CommandExecutionException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code /etc/rc?.d} links that start ({@code S01name}) or stop ({@code K01name}) a SysV service at a runlevel,
 * made and toggled the way Debian's update-rc.d does on a host without insserv: {@code defaults} links the levels of
 * the script's LSB header when the service has no link yet, and {@code enable}/{@code disable} rename the links of the
 * start levels (S and 2-5 only) between S and K. Done here rather than by update-rc.d, which cannot work on another
 * root folder (its toggle reads the header from the host's /etc/init.d whatever DPKG_ROOT says).
 */
public final class RcLinks {

    private static final Pattern LINK = Pattern.compile("([SK])(\\d\\d)(.+)");
    private static final Pattern TOGGLED_LEVEL = Pattern.compile("[S2345]");

    private final Path etc;

    public RcLinks(Path root) {
        this.etc = root.resolve("etc");
    }

    private Path rcDir(String level) {
        return etc.resolve("rc" + level + ".d");
    }

    /** update-rc.d's {@code defaults}: start and stop links as the header says, unless the service has links already. */
    public void makeDefaults(String name, InitScriptHeader header) {
        if (!linksOf(name, allLevels()).isEmpty()) {
            return; // as update-rc.d: links that exist, enabled or disabled, are the admin's choice
        }
        for (String level : header.defaultStart()) {
            link(level, "S01" + name, name);
        }
        for (String level : header.defaultStop()) {
            link(level, "K01" + name, name);
        }
    }

    /** update-rc.d's {@code enable} or {@code disable}: S links become K links in the start levels, or back. */
    public void toggle(String name, List<String> startLevels, boolean enable) {
        if (startLevels.isEmpty()) {
            throw new CommandExecutionException(name + ": the script's Default-Start names no runlevels");
        }
        List<String> levels = startLevels.stream().filter(level -> TOGGLED_LEVEL.matcher(level).matches()).toList();
        List<Path> links = linksOf(name, levels);
        if (links.isEmpty()) {
            throw new CommandExecutionException(name + ": no runlevel links to change in " + etc + "/rc{" + String.join(",", levels) + "}.d");
        }
        char from = enable ? 'K' : 'S';
        char to = enable ? 'S' : 'K';
        for (Path link : links) {
            String file = link.getFileName().toString();
            if (file.charAt(0) == from) {
                try {
                    Files.move(link, link.resolveSibling(to + file.substring(1)));
                } catch (IOException e) {
                    throw new CommandExecutionException("cannot rename " + link + ": " + e.getMessage());
                }
            }
        }
    }

    /** The services with a start link at runlevel S or at {@code runlevel}, as Salt's get_enabled reads them. */
    public SortedSet<String> startedAt(String runlevel) {
        SortedSet<String> names = new TreeSet<>();
        for (String level : List.of("S", runlevel)) {
            for (Path link : entries(rcDir(level))) {
                Matcher m = LINK.matcher(link.getFileName().toString());
                if (m.matches() && m.group(1).equals("S")) {
                    names.add(m.group(3));
                }
            }
        }
        return names;
    }

    private static List<String> allLevels() {
        return List.of("0", "1", "2", "3", "4", "5", "6", "S");
    }

    private List<Path> linksOf(String name, List<String> levels) {
        List<Path> links = new ArrayList<>();
        for (String level : levels) {
            for (Path entry : entries(rcDir(level))) {
                Matcher m = LINK.matcher(entry.getFileName().toString());
                if (m.matches() && m.group(3).equals(name)) {
                    links.add(entry);
                }
            }
        }
        return links;
    }

    private void link(String level, String file, String name) {
        Path dir = rcDir(level);
        try {
            Files.createDirectories(dir);
            Files.createSymbolicLink(dir.resolve(file), Path.of("../init.d", name));
        } catch (IOException e) {
            throw new CommandExecutionException("cannot link " + dir.resolve(file) + ": " + e.getMessage());
        }
    }

    private static List<Path> entries(Path dir) {
        List<Path> entries = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return entries;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            stream.forEach(entries::add);
        } catch (IOException e) {
            throw new CommandExecutionException("cannot list " + dir + ": " + e.getMessage());
        }
        return entries;
    }
}
