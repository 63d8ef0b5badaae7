package io.jsalt.bench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * One reading of a process from /proc: resident memory, CPU time used so far, open file descriptors and
 * threads. Linux only; a process that has gone reads as zeros.
 *
 * @param rssKiB    VmRSS
 * @param cpuMillis user + system CPU time since the process started
 * @param fds       entries of /proc/pid/fd
 * @param threads   Threads
 */
public record ProcSample(long rssKiB, long cpuMillis, int fds, int threads) {
    /** Clock ticks per second of /proc/pid/stat's times: 100 on every Linux this runs on. */
    private static final long TICKS_PER_SECOND = 100;

    public static ProcSample of(long pid) {
        Path proc = Path.of("/proc", Long.toString(pid));
        try {
            long rss = 0;
            int threads = 0;
            for (String line : Files.readAllLines(proc.resolve("status"))) {
                if (line.startsWith("VmRSS:")) {
                    rss = Long.parseLong(line.replaceAll("[^0-9]", ""));
                } else if (line.startsWith("Threads:")) {
                    threads = Integer.parseInt(line.replaceAll("[^0-9]", ""));
                }
            }
            String stat = Files.readString(proc.resolve("stat"));
            // fields after the command name, which may hold spaces and is closed by the last ')'
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
            int fds;
            try (Stream<Path> s = Files.list(proc.resolve("fd"))) {
                fds = (int) s.count();
            }
            return new ProcSample(rss, ticks * 1000 / TICKS_PER_SECOND, fds, threads);
        } catch (NoSuchFileException e) {
            return new ProcSample(0, 0, 0, 0);
        } catch (IOException | RuntimeException e) {
            return new ProcSample(0, 0, 0, 0);
        }
    }

    public double rssMiB() {
        return rssKiB / 1024.0;
    }
}
