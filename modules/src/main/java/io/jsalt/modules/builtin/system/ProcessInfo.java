package io.jsalt.modules.builtin.system;

import java.util.List;

/**
 * One process as /proc/[pid] describes it.
 *
 * @param pid        the process id
 * @param ppid       the parent's id
 * @param name       the command name (/proc/[pid]/comm, at most 15 characters)
 * @param state      the state letter: R, S, D, Z, T...
 * @param uid        the real user id
 * @param cmdline    the arguments; empty for kernel threads and zombies
 * @param userTicks  CPU time in user mode, in clock ticks
 * @param systemTicks CPU time in kernel mode, in clock ticks
 * @param childTicks CPU time of waited-for children, user and kernel mode, in clock ticks
 * @param startTicks start time after boot, in clock ticks
 * @param vmsBytes   virtual memory size
 * @param rssBytes   resident set size
 * @param threads    number of threads
 */
public record ProcessInfo(long pid, long ppid, String name, String state, long uid, List<String> cmdline,
                          long userTicks, long systemTicks, long[] childTicks, long startTicks, long vmsBytes, long rssBytes,
                          int threads) {

    public ProcessInfo {
        cmdline = List.copyOf(cmdline);
        childTicks = childTicks.clone();
    }

    /** The command line as ps shows it: the arguments joined, or the name in brackets for a kernel thread. */
    public String commandText() {
        return cmdline.isEmpty() ? "[" + name + "]" : String.join(" ", cmdline);
    }

    /** psutil's status names, which Salt's ps module passes through. */
    public String statusName() {
        return switch (state) {
            case "R" -> "running";
            case "S" -> "sleeping";
            case "D" -> "disk-sleep";
            case "Z" -> "zombie";
            case "T" -> "stopped";
            case "t" -> "tracing-stop";
            case "X", "x" -> "dead";
            case "I" -> "idle";
            case "P" -> "parked";
            default -> state;
        };
    }
}
