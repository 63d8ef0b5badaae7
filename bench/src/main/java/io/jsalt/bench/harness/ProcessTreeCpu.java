package io.jsalt.bench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time of a process and everything it started: its own user + system time, that of its live descendants, and
 * that of its children that ended (/proc's cutime and cstime). A salt-minion runs each job in a child process, a
 * launcher script runs the daemon as its child: counting the whole tree compares a jsalt minion with them fairly.
 * On a loaded machine CPU time says more than wall time. Linux only; a process that has gone counts zero.
 */
public final class ProcessTreeCpu {
    private static final long TICKS_PER_SECOND = 100;

    private ProcessTreeCpu() {
    }

    public static long millis(long pid) {
        long ticks = ticks(pid);
        ticks += ProcessHandle.of(pid).stream().flatMap(ProcessHandle::descendants)
                .mapToLong(h -> ticks(h.pid())).sum();
        return ticks * 1000 / TICKS_PER_SECOND;
    }

    /** utime + stime + the ended children's (cutime + cstime): ended children are in no live listing. */
    private static long ticks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long own = Long.parseLong(f[11]) + Long.parseLong(f[12]);
            return own + Long.parseLong(f[13]) + Long.parseLong(f[14]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
