package io.jsalt.minion.supervisor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * When a process started, as the kernel records it: field 22 of {@code /proc/<pid>/stat} (clock ticks after
 * boot). A pid with the same start time is the same process: a pid alone may have been reused by another
 * process since it was written down, so every adoption and every liveness check compares both.
 */
final class ProcStart {
    /** The field after the command's closing parenthesis is field 3 (the state); starttime is field 22. */
    private static final int STATE = 0;
    private static final int STARTTIME = 22 - 3;
    private static final Path PROC = Path.of("/proc");

    private ProcStart() {
    }

    /** The start time of {@code pid}, empty when there is no such process or it has exited (a zombie). */
    static OptionalLong of(long pid) {
        return of(PROC, pid);
    }

    /** {@link #of(long)} in another /proc (tests). */
    static OptionalLong of(Path proc, long pid) {
        if (pid <= 0) {
            return OptionalLong.empty();
        }
        String stat;
        try {
            stat = Files.readString(proc.resolve(Long.toString(pid)).resolve("stat"));
        } catch (IOException e) {
            return OptionalLong.empty();
        }
        // the command (field 2) may hold spaces and parentheses: the fields start after the last ')'
        int close = stat.lastIndexOf(')');
        if (close < 0 || close + 2 > stat.length()) {
            return OptionalLong.empty();
        }
        String[] fields = stat.substring(close + 2).trim().split(" ");
        if (fields.length <= STARTTIME || fields[STATE].equals("Z") || fields[STATE].equals("X")) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(fields[STARTTIME]));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** Whether {@code pid} is alive and is still the process that started at {@code ticks}. */
    static boolean isSame(long pid, long ticks) {
        OptionalLong now = of(pid);
        return now.isPresent() && now.getAsLong() == ticks;
    }
}
