package io.jsalt.modules.builtin;

import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.builtin.accounts.AccountDatabase;
import io.jsalt.modules.builtin.cmd.CommandOutcome;
import io.jsalt.modules.builtin.system.CpuTimes;
import io.jsalt.modules.builtin.system.MemInfo;
import io.jsalt.modules.builtin.system.Mount;
import io.jsalt.modules.builtin.system.ProcFile;
import io.jsalt.modules.builtin.system.ProcessInfo;
import io.jsalt.modules.builtin.system.ProcessTable;
import io.jsalt.modules.builtin.system.SystemCommand;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Salt's {@code ps} module, which wraps psutil; jsalt reads what psutil reads, /proc, and returns psutil's
 * field names.
 */
@SaltModule(name = "ps", doc = "Processes, CPU and memory, as psutil reports them (Salt's ps module).")
public final class PsModule implements ExecutionModule {

    private final Path proc;

    public PsModule() {
        this(Path.of("/proc"));
    }

    /** For tests: another proc tree. */
    public PsModule(Path proc) {
        this.proc = proc;
    }

    @SaltFunction(doc = "Return the num_processes processes that used the most CPU time during interval seconds: "
            + "[{'cmd', 'user', 'status', 'pid', 'create_time', 'cpu': {...}, 'mem': {...}}].\n\n"
            + "CLI Example: salt '*' ps.top num_processes=5 interval=3")
    public List<Map<String, Object>> top(@Arg(value = "num_processes", defaultValue = "5") int numProcesses,
                                         @Arg(value = "interval", defaultValue = "3") double interval)
            throws InterruptedException {
        ProcessTable table = table();
        Map<Long, Long> before = new HashMap<>();
        for (ProcessInfo process : table.all()) {
            before.put(process.pid(), process.userTicks() + process.systemTicks());
        }
        pause(interval);
        List<ProcessInfo> after = new ArrayList<>();
        Map<Long, Long> used = new HashMap<>();
        for (ProcessInfo process : table.all()) {
            Long start = before.get(process.pid());
            if (start != null) {
                after.add(process);
                used.put(process.pid(), process.userTicks() + process.systemTicks() - start);
            }
        }
        after.sort(Comparator.comparingLong((ProcessInfo process) -> used.get(process.pid())).reversed()
                .thenComparingLong(ProcessInfo::pid));
        ProcessReport report = report();
        List<Map<String, Object>> result = new ArrayList<>();
        for (ProcessInfo process : after.subList(0, Math.max(0, Math.min(numProcesses, after.size())))) {
            Map<String, Object> info = new LinkedHashMap<>();
            info.put("cmd", process.cmdline().isEmpty() ? ProcessReport.name(process) : process.cmdline());
            info.put("user", report.username(process));
            info.put("status", process.statusName());
            info.put("pid", process.pid());
            info.put("create_time", report.createTime(process));
            info.put("cpu", ProcessReport.cpuTimes(process));
            info.put("mem", ProcessReport.memoryInfo(process));
            result.add(info);
        }
        return result;
    }

    @SaltFunction(doc = "Return the pids of processes whose name (whole command line with full=True) contains "
            + "pattern (a regular expression with pattern_is_regex=True), optionally only user's; None when "
            + "none match.\n\nCLI Example: salt '*' ps.pgrep bash user=root full=True")
    public List<Long> pgrep(@Arg("pattern") String pattern,
                            @Arg(value = "user", defaultValue = Arg.NULL) String user,
                            @Arg(value = "full", defaultValue = "false") boolean full,
                            @Arg(value = "pattern_is_regex", defaultValue = "false") boolean patternIsRegex) {
        Pattern regex = null;
        if (patternIsRegex) {
            try {
                regex = Pattern.compile(pattern);
            } catch (PatternSyntaxException e) {
                throw new CommandExecutionException("Invalid regular expression '" + pattern + "': " + e.getDescription());
            }
        }
        ProcessReport report = report();
        List<Long> pids = new ArrayList<>();
        for (ProcessInfo process : table().all()) {
            String line = full ? String.join(" ", process.cmdline()) : ProcessReport.name(process);
            boolean nameMatch = regex != null ? regex.matcher(line).find() : line.contains(pattern);
            if (nameMatch && (user == null || user.equals(report.username(process)))) {
                pids.add(process.pid());
            }
        }
        // Salt's "procs or None"
        return pids.isEmpty() ? null : pids;
    }

    @SaltFunction(doc = "Return a dictionary of information for a process id, optionally only the attrs asked "
            + "for: pid, ppid, name, exe, cmdline, cwd, status, username, uids, create_time, num_threads, "
            + "cpu_times, memory_info.\n\nCLI Example: salt '*' ps.proc_info 2322 attrs='[\"pid\", \"name\"]'")
    public Map<String, Object> proc_info(@Arg("pid") long pid,
                                         @Arg(value = "attrs", defaultValue = Arg.NULL) List<Object> attrs) {
        ProcessInfo process = table().find(pid)
                .orElseThrow(() -> new CommandExecutionException("psutil.NoSuchProcess no process found with pid " + pid));
        Map<String, Object> info = report().asDict(process);
        if (attrs == null) {
            return info;
        }
        Map<String, Object> chosen = new LinkedHashMap<>();
        for (Object attr : attrs) {
            String name = String.valueOf(attr);
            if (!info.containsKey(name)) {
                throw new CommandExecutionException("invalid attr name '" + name + "'");
            }
            chosen.put(name, info.get(name));
        }
        return chosen;
    }

    @SaltFunction(doc = "Kill a process by pid with a signal (default 15, SIGTERM). Returns True if the signal "
            + "was sent, False if there is no such process.\n\nCLI Example: salt '*' ps.kill_pid 2000 signal=9")
    public boolean kill_pid(@Arg("pid") long pid, @Arg(value = "signal", defaultValue = "15") int signal) {
        if (pid <= 0) {
            throw new CommandExecutionException("pid must be positive, got " + pid);
        }
        if (signal < 0 || signal > 64) {
            throw new CommandExecutionException("Invalid signal " + signal);
        }
        if (pid == ProcessHandle.current().pid()) {
            throw new CommandExecutionException("refusing to signal the minion's own process " + pid);
        }
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty()) {
            return false;
        }
        if (signal == 0) {
            return handle.get().isAlive();
        }
        CommandOutcome outcome = SystemCommand.run(List.of("kill", "-s", Integer.toString(signal), Long.toString(pid)),
                Duration.ofSeconds(10));
        if (outcome.exitCode() == 0) {
            return true;
        }
        if (ProcessHandle.of(pid).isEmpty()) {
            return false; // it exited meanwhile
        }
        throw new CommandExecutionException("Unable to send signal " + signal + " to pid " + pid + ": "
                + outcome.stderr().strip());
    }

    @SaltFunction(doc = "Return the percent of time the CPU was busy over interval seconds (since boot when "
            + "interval is 0); a list with one value per CPU when per_cpu=True.\n\n"
            + "CLI Example: salt '*' ps.cpu_percent interval=1")
    public Object cpu_percent(@Arg(value = "interval", defaultValue = "0.1") double interval,
                              @Arg(value = "per_cpu", defaultValue = "false") boolean perCpu)
            throws InterruptedException {
        CpuTimes before = interval > 0 ? cpuTimes() : zero();
        pause(interval);
        CpuTimes after = cpuTimes();
        if (!perCpu) {
            return CpuTimes.busyPercent(before.total(), after.total());
        }
        List<Double> percents = new ArrayList<>();
        for (int i = 0; i < after.perCpu().size(); i++) {
            long[] start = i < before.perCpu().size() ? before.perCpu().get(i) : new long[0];
            percents.add(CpuTimes.busyPercent(start, after.perCpu().get(i)));
        }
        return percents;
    }

    @SaltFunction(doc = "Return psutil's virtual memory statistics in bytes: total, available, percent, used, "
            + "free, active, inactive, buffers, cached, shared, slab.\n\nCLI Example: salt '*' ps.virtual_memory")
    public Map<String, Object> virtual_memory() {
        MemInfo mem = MemInfo.parse(ProcFile.read(proc.resolve("meminfo")));
        long total = mem.bytes("MemTotal");
        long free = mem.bytes("MemFree");
        long buffers = mem.bytes("Buffers");
        long cached = mem.bytes("Cached") + mem.bytes("SReclaimable");
        long available = mem.has("MemAvailable") ? mem.bytes("MemAvailable") : free + buffers + cached;
        long used = total - free - buffers - cached;
        if (used < 0) {
            used = total - free; // psutil's fallback for containers that report odd numbers
        }
        Map<String, Object> ret = new LinkedHashMap<>();
        ret.put("total", total);
        ret.put("available", available);
        ret.put("percent", total == 0 ? 0.0 : Math.round(1000.0 * (total - available) / total) / 10.0);
        ret.put("used", used);
        ret.put("free", free);
        ret.put("active", mem.bytes("Active"));
        ret.put("inactive", mem.bytes("Inactive"));
        ret.put("buffers", buffers);
        ret.put("cached", cached);
        ret.put("shared", mem.bytes("Shmem"));
        ret.put("slab", mem.bytes("Slab"));
        return ret;
    }

    @SaltFunction(doc = "Return the mounted disk partitions: [{'device', 'mountpoint', 'fstype', 'opts'}]; "
            + "only physical devices unless all=True.\n\nCLI Example: salt '*' ps.disk_partitions")
    public List<Map<String, Object>> disk_partitions(@Arg(value = "all", defaultValue = "false") boolean all) {
        Set<String> physical = new HashSet<>();
        for (String line : ProcFile.lines(proc.resolve("filesystems"))) {
            // psutil: a type not marked nodev is on a device; zfs is the exception it makes
            if (!line.startsWith("nodev")) {
                physical.add(line.strip());
            } else if (line.strip().endsWith("zfs")) {
                physical.add("zfs");
            }
        }
        List<Map<String, Object>> ret = new ArrayList<>();
        for (Mount mount : Mount.parseTable(ProcFile.read(proc.resolve("self/mounts")))) {
            if (!all && (mount.device().isEmpty() || mount.device().equals("none")
                    || !physical.contains(mount.fsType()))) {
                continue;
            }
            Map<String, Object> partition = new LinkedHashMap<>();
            partition.put("device", mount.device());
            partition.put("mountpoint", mount.mountPoint());
            partition.put("fstype", mount.fsType());
            partition.put("opts", mount.options());
            ret.add(partition);
        }
        return ret;
    }

    private ProcessTable table() {
        return new ProcessTable(proc);
    }

    private CpuTimes cpuTimes() {
        return CpuTimes.parse(ProcFile.read(proc.resolve("stat")));
    }

    private static CpuTimes zero() {
        return new CpuTimes(new long[0], List.of(), 0);
    }

    private ProcessReport report() {
        Map<Long, String> names = new HashMap<>();
        try {
            AccountDatabase.system().users().forEach(user -> names.putIfAbsent(user.uid(), user.name()));
        } catch (CommandExecutionException e) {
            // without /etc/passwd psutil shows uids; so do we
        }
        return new ProcessReport(proc, cpuTimes().bootTime(), names);
    }

    private static void pause(double seconds) throws InterruptedException {
        if (seconds < 0 || seconds > 3600) {
            throw new CommandExecutionException("interval must be between 0 and 3600 seconds, got " + seconds);
        }
        Thread.sleep((long) (seconds * 1000)); // the sampling interval itself, as psutil waits between two CPU readings
    }
}
