package io.jsalt.modules.builtin.system;

import java.util.ArrayList;
import java.util.List;

/**
 * The CPU counters of /proc/stat, in clock ticks: the total line and one per CPU, plus the boot time.
 *
 * @param total  the "cpu" line's counters (user, nice, system, idle, iowait, irq, softirq, steal, ...)
 * @param perCpu each "cpuN" line's counters, in order
 * @param bootTime seconds since the epoch at boot ("btime")
 */
public record CpuTimes(long[] total, List<long[]> perCpu, long bootTime) {

    public static CpuTimes parse(String text) {
        long[] total = new long[0];
        List<long[]> perCpu = new ArrayList<>();
        long bootTime = 0;
        for (String line : text.split("\n")) {
            String[] fields = line.trim().split("\\s+");
            if (fields[0].equals("cpu")) {
                total = counters(fields);
            } else if (fields[0].startsWith("cpu")) {
                perCpu.add(counters(fields));
            } else if (fields[0].equals("btime") && fields.length > 1) {
                bootTime = Long.parseLong(fields[1]);
            }
        }
        return new CpuTimes(total, perCpu, bootTime);
    }

    private static long[] counters(String[] fields) {
        long[] values = new long[fields.length - 1];
        for (int i = 1; i < fields.length; i++) {
            values[i - 1] = Long.parseLong(fields[i]);
        }
        return values;
    }

    /** psutil's cpu_percent between two samples of one counter line: the share of non-idle ticks, 0 to 100. */
    public static double busyPercent(long[] before, long[] after) {
        long total = 0;
        long idle = 0;
        // a missing before sample counts as zero: busy time since boot
        for (int i = 0; i < Math.min(after.length, 8); i++) {
            // guest and guest_nice (8 and 9) are already counted in user and nice
            long delta = after[i] - (i < before.length ? before[i] : 0);
            total += delta;
            if (i == 3 || i == 4) {
                idle += delta;
            }
        }
        if (total <= 0) {
            return 0.0;
        }
        return Math.round(1000.0 * (total - idle) / total) / 10.0;
    }
}
