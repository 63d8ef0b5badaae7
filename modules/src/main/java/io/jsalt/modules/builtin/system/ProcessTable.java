package io.jsalt.modules.builtin.system;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Reads processes from a proc file system; a process that exits while being read is simply absent. */
public final class ProcessTable {

    /** USER_HZ: the unit of /proc times, 100 on every Linux architecture jsalt runs on. */
    public static final int CLOCK_TICKS = 100;

    private final Path proc;

    public ProcessTable(Path proc) {
        this.proc = proc;
    }

    public static ProcessTable system() {
        return new ProcessTable(Path.of("/proc"));
    }

    /** Every process readable now, by ascending pid. */
    public List<ProcessInfo> all() {
        List<Long> pids = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(proc)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (!name.isEmpty() && name.chars().allMatch(Character::isDigit)) {
                    pids.add(Long.parseLong(name));
                }
            }
        } catch (IOException | NumberFormatException e) {
            throw new io.jsalt.modules.api.CommandExecutionException("Unable to list " + proc + ": " + e.getMessage(), e);
        }
        pids.sort(null);
        List<ProcessInfo> processes = new ArrayList<>(pids.size());
        for (long pid : pids) {
            find(pid).ifPresent(processes::add);
        }
        return processes;
    }

    /** The process, or empty when there is none (or it vanished while being read). */
    public Optional<ProcessInfo> find(long pid) {
        Path dir = proc.resolve(Long.toString(pid));
        try {
            String stat = Files.readString(dir.resolve("stat"), StandardCharsets.UTF_8);
            String status = Files.readString(dir.resolve("status"), StandardCharsets.UTF_8);
            byte[] cmdline = Files.readAllBytes(dir.resolve("cmdline"));
            return Optional.of(parse(pid, stat, status, cmdline));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    static ProcessInfo parse(long pid, String stat, String status, byte[] cmdline) {
        // the name in stat is in parentheses and may itself hold ") ": the fields start after the last one
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        String name = stat.substring(open + 1, close);
        String[] fields = stat.substring(close + 2).trim().split("\\s+");
        // fields[0] is stat's field 3 (state)
        String state = fields[0];
        long ppid = Long.parseLong(fields[1]);
        long utime = Long.parseLong(fields[11]);
        long stime = Long.parseLong(fields[12]);
        long[] children = {Long.parseLong(fields[13]), Long.parseLong(fields[14])};
        int threads = Integer.parseInt(fields[17]);
        long start = Long.parseLong(fields[19]);
        long vsize = Long.parseLong(fields[20]);
        long uid = 0;
        long rss = 0;
        for (String line : status.split("\n")) {
            if (line.startsWith("Uid:")) {
                uid = Long.parseLong(line.substring(4).trim().split("\\s+")[0]);
            } else if (line.startsWith("VmRSS:")) {
                rss = Long.parseLong(line.substring(6).trim().split("\\s+")[0]) * 1024;
            }
        }
        return new ProcessInfo(pid, ppid, name, state, uid, arguments(cmdline), utime, stime, children, start, vsize, rss,
                threads);
    }

    private static List<String> arguments(byte[] cmdline) {
        String text = new String(cmdline, StandardCharsets.UTF_8);
        if (text.isEmpty()) {
            return List.of();
        }
        if (text.endsWith("\0")) {
            text = text.substring(0, text.length() - 1);
        }
        return Arrays.asList(text.split("\0", -1));
    }
}
