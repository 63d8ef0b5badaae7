package io.jsalt.modules.builtin.system;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.cmd.CommandOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Inode counts of mounted file systems. Java's FileStore has no inode counts and /proc has none either,
 * so they come from {@code df -iP}, which Salt runs too.
 */
public record InodeCount(String filesystem, String mountPoint, String inodes, String used, String free, String usePercent) {

    private static final Duration DF_TIMEOUT = Duration.ofSeconds(30);

    /** Runs {@code df -iP} with extra df flags (letters only, already checked by the caller). */
    public static List<InodeCount> measure(String flags) {
        List<String> argv = new ArrayList<>(List.of("df", "-iP"));
        if (!flags.isEmpty()) {
            argv.add("-" + flags);
        }
        CommandOutcome outcome = SystemCommand.run(argv, DF_TIMEOUT);
        List<InodeCount> counts = parseDf(outcome.stdout());
        if (counts.isEmpty() && outcome.exitCode() != 0) {
            throw new CommandExecutionException("df -iP failed: " + outcome.stderr().strip());
        }
        return counts;
    }

    /** Parses df -iP output; a device name with spaces is joined back as Salt does. */
    static List<InodeCount> parseDf(String output) {
        List<InodeCount> counts = new ArrayList<>();
        for (String line : output.split("\n")) {
            if (line.isBlank() || line.startsWith("Filesystem")) {
                continue;
            }
            List<String> comps = new ArrayList<>(List.of(line.trim().split("\\s+")));
            while (comps.size() > 6 && !isNumber(comps.get(1))) {
                comps.set(0, comps.get(0) + " " + comps.remove(1));
            }
            if (comps.size() < 6) {
                continue;
            }
            String mountPoint = String.join(" ", comps.subList(5, comps.size()));
            counts.add(new InodeCount(comps.get(0), mountPoint, comps.get(1), comps.get(2), comps.get(3),
                    comps.get(4)));
        }
        return counts;
    }

    private static boolean isNumber(String text) {
        // df prints "-" where a file system has no inode count (some FUSE, btrfs), and 1.2M with -h
        return !text.isEmpty() && (text.equals("-") || Character.isDigit(text.charAt(0)));
    }
}
