package io.jsalt.bench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU time a process and everything it started have used, from {@code /proc}: for the process and each
 * live descendant, user + system time plus the time of its children that have exited and been waited for
 * ({@code cutime}, {@code cstime}). A salt-minion forks a process per job (Salt's {@code multiprocessing:
 * True}); its exited job processes are counted through their parent's {@code cutime}/{@code cstime}.
 */
public final class TreeCpu {
    private static final long TICKS_PER_SECOND = 100;

    private TreeCpu() {
    }

    /** CPU milliseconds used so far by {@code pid} and its live descendants (and their waited-for children). */
    public static long millis(long pid) {
        long ticks = ticks(pid);
        ProcessHandle root = ProcessHandle.of(pid).orElse(null);
        if (root != null) {
            ticks += root.descendants().mapToLong(p -> ticks(p.pid())).sum();
        }
        return ticks * 1000 / TICKS_PER_SECOND;
    }

    /**
     * CPU milliseconds used so far by the threads of {@code pid} whose name (the kernel's {@code comm}, cut at 15
     * characters) starts with one of {@code prefixes}: to take out of a process's figure the work of threads that
     * do something else than what is measured.
     */
    public static long threadMillis(long pid, java.util.List<String> prefixes) {
        long ticks = 0;
        try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String comm = Files.readString(task.resolve("comm")).strip();
                    if (prefixes.stream().anyMatch(comm::startsWith)) {
                        String stat = Files.readString(task.resolve("stat"));
                        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                    }
                } catch (IOException | RuntimeException gone) {
                    // a thread that ended meanwhile
                }
            }
        } catch (IOException | RuntimeException gone) {
            return 0;
        }
        return ticks * 1000 / TICKS_PER_SECOND;
    }

    /**
     * CPU milliseconds used so far by the live threads of {@code pid}, summed per name with its digits as
     * {@code N} ({@code jsalt-mworker-N}, {@code iothread-N}): where a process's time goes, read as the
     * difference of two calls.
     */
    public static java.util.Map<String, Long> perThreadName(long pid) {
        java.util.Map<String, Long> out = new java.util.TreeMap<>();
        try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String comm = Files.readString(task.resolve("comm")).strip().replaceAll("[0-9]+", "N");
                    String stat = Files.readString(task.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    out.merge(comm, (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 1000 / TICKS_PER_SECOND, Long::sum);
                } catch (IOException | RuntimeException gone) {
                    // a thread that ended meanwhile
                }
            }
        } catch (IOException | RuntimeException gone) {
            return out;
        }
        return out;
    }

    /** The thread names that used CPU between two {@link #perThreadName} readings, and how much, busiest first. */
    public static java.util.Map<String, Long> used(java.util.Map<String, Long> before, java.util.Map<String, Long> after) {
        java.util.Map<String, Long> used = new java.util.LinkedHashMap<>();
        after.entrySet().stream().map(e -> java.util.Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
                .filter(e -> e.getValue() > 0).sorted(java.util.Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> used.put(e.getKey(), e.getValue()));
        return used;
    }

    /**
     * CPU milliseconds of this JVM's children that have exited and been waited for ({@code /proc/self/stat}'s
     * {@code cutime + cstime}): the CPU of a tool run to completion, read as the difference around the run.
     */
    public static long waitedChildrenMillis() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[13]) + Long.parseLong(f[14])) * 1000 / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static long ticks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // fields after the command name, which may hold spaces and is closed by the last ')'
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
        } catch (IOException | RuntimeException gone) {
            return 0;
        }
    }
}
