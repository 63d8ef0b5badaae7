package io.jsalt.minion.supervisor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds running processes by their command line, as {@code pgrep -f} does (the arguments joined by spaces, a
 * regular expression found anywhere in it), for {@code pattern=}: a program whose process jsalt did not start.
 * Only the program's user's processes are candidates (real and effective uid both its: the minion's own, or the
 * program's {@code user} on a root minion): the process
 * found is stopped and killed as the program's, so another user's process, whatever its command line, is never
 * taken. Zombies, kernel threads and the pids {@code excluded} (the supervisor's own processes) are skipped.
 */
final class CommandLines {
    private static final Logger log = LoggerFactory.getLogger(CommandLines.class);
    private static final Path PROC = Path.of("/proc");
    /** Longer command lines are cut: a pattern is matched against their first 64 KiB. */
    private static final int MAX_CMDLINE = 64 * 1024;

    /** A process found, with its start time (field 22 of /proc/pid/stat). */
    record Match(long pid, long ticks, String commandLine) {
    }

    private CommandLines() {
    }

    /**
     * The processes matching {@code pattern}, the oldest first (the one {@code pgrep -o} names), of the user
     * {@code uid} ({@code -1}: the minion's own).
     */
    static List<Match> matching(Pattern pattern, Set<Long> excluded, long uid) {
        return matching(PROC, pattern, excluded, uid);
    }

    /** The uid of process {@code pid} (its real and effective uid, when they are the same); empty otherwise. */
    static OptionalLong uidOf(long pid) {
        return uid(PROC.resolve(Long.toString(pid)));
    }

    /** The minion's uid, -1 when /proc cannot say. */
    static long ownUid() {
        return uid(PROC.resolve("self")).orElse(-1);
    }

    /** {@link #matching(Pattern, Set, long)} over another /proc (tests). */
    static List<Match> matching(Path proc, Pattern pattern, Set<Long> excluded, long uid) {
        OptionalLong me = uid >= 0 ? OptionalLong.of(uid) : uid(proc.resolve("self"));
        if (me.isEmpty()) {
            return List.of(); // no /proc: nothing can be found, nor its start time checked
        }
        List<Match> found = new ArrayList<>();
        int refused = 0;
        // the minion and what started it (a shell, a service manager) are never a program's process
        Set<Long> skipped = new java.util.HashSet<>(excluded);
        for (Optional<ProcessHandle> h = Optional.of(ProcessHandle.current()); h.isPresent(); h = h.get().parent()) {
            skipped.add(h.get().pid());
        }
        try (DirectoryStream<Path> pids = Files.newDirectoryStream(proc, p -> isNumber(p.getFileName().toString()))) {
            for (Path dir : pids) {
                long pid = Long.parseLong(dir.getFileName().toString());
                if (skipped.contains(pid)) {
                    continue;
                }
                Optional<String> line = commandLine(dir);
                if (line.isEmpty() || !pattern.matcher(line.get()).find()) {
                    continue;
                }
                OptionalLong owner = uid(dir);
                OptionalLong ticks = ProcStart.of(proc, pid);
                if (owner.isEmpty() || ticks.isEmpty()) {
                    continue; // gone meanwhile, or a zombie
                }
                if (owner.getAsLong() != me.getAsLong()) {
                    if (refused++ < 3) {
                        log.warn("pid {} matches the pattern {} but is not the program's user's (uid {}): not taken",
                                pid, pattern, owner.getAsLong());
                    }
                    continue;
                }
                found.add(new Match(pid, ticks.getAsLong(), line.get()));
            }
        } catch (IOException e) {
            log.warn("cannot list /proc: {}", e.toString());
            return List.of();
        }
        found.sort(Comparator.comparingLong(Match::ticks).thenComparingLong(Match::pid));
        return found;
    }

    private static boolean isNumber(String name) {
        return !name.isEmpty() && name.length() < 12 && name.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    /** The arguments joined by spaces; empty for a kernel thread or a process gone. */
    static Optional<String> commandLine(Path dir) {
        try (var in = Files.newInputStream(dir.resolve("cmdline"))) {
            byte[] raw = in.readNBytes(MAX_CMDLINE);
            int end = raw.length;
            while (end > 0 && raw[end - 1] == 0) {
                end--;
            }
            if (end == 0) {
                return Optional.empty();
            }
            return Optional.of(new String(raw, 0, end, StandardCharsets.UTF_8).replace('\0', ' '));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The process's uid when its real and effective uids are the same (the {@code Uid:} line of its status);
     * empty otherwise (a set-uid process is nobody's to take) or when it is gone.
     */
    private static OptionalLong uid(Path dir) {
        try {
            for (String line : Files.readAllLines(dir.resolve("status"), StandardCharsets.ISO_8859_1)) {
                if (line.startsWith("Uid:")) {
                    String[] ids = line.substring(4).trim().split("\\s+");
                    return ids.length >= 2 && ids[0].equals(ids[1]) ? OptionalLong.of(Long.parseLong(ids[0])) : OptionalLong.empty();
                }
            }
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
        return OptionalLong.empty();
    }
}
