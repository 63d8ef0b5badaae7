package io.jsalt.modules.builtin;

import io.jsalt.modules.builtin.system.ProcessInfo;
import io.jsalt.modules.builtin.system.ProcessTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** psutil's view of a process, which Salt's ps module returns: names, times in seconds, memory in bytes. */
final class ProcessReport {

    private final Path proc;
    private final long bootTime;
    private final Map<Long, String> userNames;

    ProcessReport(Path proc, long bootTime, Map<Long, String> userNames) {
        this.proc = proc;
        this.bootTime = bootTime;
        this.userNames = userNames;
    }

    /** psutil's name(): comm, or the program's file name when comm was cut at 15 characters. */
    static String name(ProcessInfo process) {
        if (process.name().length() >= 15 && !process.cmdline().isEmpty()) {
            String program = process.cmdline().get(0);
            String base = program.substring(program.lastIndexOf('/') + 1);
            if (base.startsWith(process.name())) {
                return base;
            }
        }
        return process.name();
    }

    String username(ProcessInfo process) {
        return userNames.getOrDefault(process.uid(), Long.toString(process.uid()));
    }

    double createTime(ProcessInfo process) {
        return bootTime + (double) process.startTicks() / ProcessTable.CLOCK_TICKS;
    }

    static Map<String, Object> cpuTimes(ProcessInfo process) {
        Map<String, Object> cpu = new LinkedHashMap<>();
        cpu.put("user", seconds(process.userTicks()));
        cpu.put("system", seconds(process.systemTicks()));
        cpu.put("children_user", seconds(process.childTicks()[0]));
        cpu.put("children_system", seconds(process.childTicks()[1]));
        return cpu;
    }

    static Map<String, Object> memoryInfo(ProcessInfo process) {
        Map<String, Object> mem = new LinkedHashMap<>();
        mem.put("rss", process.rssBytes());
        mem.put("vms", process.vmsBytes());
        return mem;
    }

    /** psutil's as_dict(): what it cannot read (another user's cwd or exe) is None. */
    Map<String, Object> asDict(ProcessInfo process) {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("pid", process.pid());
        info.put("ppid", process.ppid());
        info.put("name", name(process));
        info.put("exe", link(process, "exe"));
        info.put("cmdline", process.cmdline());
        info.put("cwd", link(process, "cwd"));
        info.put("status", process.statusName());
        info.put("username", username(process));
        info.put("uids", process.uid());
        info.put("create_time", createTime(process));
        info.put("num_threads", process.threads());
        info.put("cpu_times", cpuTimes(process));
        info.put("memory_info", memoryInfo(process));
        return info;
    }

    private String link(ProcessInfo process, String name) {
        try {
            return Files.readSymbolicLink(proc.resolve(Long.toString(process.pid())).resolve(name)).toString();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static double seconds(long ticks) {
        return (double) ticks / ProcessTable.CLOCK_TICKS;
    }
}
