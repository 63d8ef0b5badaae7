package io.jsalt.modules.builtin;

import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.api.VarArgs;
import io.jsalt.modules.builtin.accounts.AccountDatabase;
import io.jsalt.modules.builtin.system.DiskSpace;
import io.jsalt.modules.builtin.system.LoginSession;
import io.jsalt.modules.builtin.system.Mount;
import io.jsalt.modules.builtin.system.ProcFile;
import io.jsalt.modules.builtin.system.ProcessInfo;
import io.jsalt.modules.builtin.system.ProcessTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Salt's {@code status} module on Linux: uptime, load, CPU, memory, disks, processes and logins, read
 * from /proc, the mount table and utmp rather than from ps and w.
 */
@SaltModule(name = "status", doc = "Return system status information (Salt's status module).")
public final class StatusModule implements ExecutionModule {

    private final Path proc;
    private final Path utmp;

    public StatusModule() {
        this(Path.of("/proc"), Path.of("/var/run/utmp"));
    }

    /** For tests: another proc tree and utmp file. */
    public StatusModule(Path proc, Path utmp) {
        this.proc = proc;
        this.utmp = utmp;
    }

    @SaltFunction(doc = "Return the uptime as Salt does: seconds, days, time (H:MM beyond the days), users "
            + "(distinct logged-in users), since_iso and since_t (the boot time).\n\nCLI Example: salt '*' status.uptime")
    public Map<String, Object> uptime() {
        String[] fields = ProcFile.read(proc.resolve("uptime")).trim().split("\\s+");
        long seconds;
        try {
            seconds = (long) Double.parseDouble(fields[0]);
        } catch (NumberFormatException e) {
            throw new CommandExecutionException("Unexpected content of " + proc.resolve("uptime") + ": " + fields[0]);
        }
        return new UptimeReport(seconds, System.currentTimeMillis(), distinctUsers()).toMap();
    }

    @SaltFunction(doc = "Return the load averages: {'1-min': ..., '5-min': ..., '15-min': ...}.\n\n"
            + "CLI Example: salt '*' status.loadavg")
    public Map<String, Object> loadavg() {
        String[] fields = ProcFile.read(proc.resolve("loadavg")).trim().split("\\s+");
        try {
            Map<String, Object> ret = new LinkedHashMap<>();
            ret.put("1-min", Double.parseDouble(fields[0]));
            ret.put("5-min", Double.parseDouble(fields[1]));
            ret.put("15-min", Double.parseDouble(fields[2]));
            return ret;
        } catch (RuntimeException e) {
            throw new CommandExecutionException("Unexpected content of " + proc.resolve("loadavg"));
        }
    }

    @SaltFunction(doc = "Return the CPU info from /proc/cpuinfo as key: value (the last processor's values win, "
            + "as in Salt); flags is a list.\n\nCLI Example: salt '*' status.cpuinfo")
    public Map<String, Object> cpuinfo() {
        Map<String, Object> ret = new LinkedHashMap<>();
        for (String line : ProcFile.lines(proc.resolve("cpuinfo"))) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = line.substring(0, colon).strip();
            String value = line.substring(colon + 1);
            ret.put(key, key.equals("flags") ? List.of(value.strip().split("\\s+")) : value.strip());
        }
        return ret;
    }

    @SaltFunction(doc = "Return /proc/meminfo as {field: {'value': '...', 'unit': 'kB'}} (unit only where the "
            + "kernel gives one).\n\nCLI Example: salt '*' status.meminfo")
    public Map<String, Object> meminfo() {
        Map<String, Object> ret = new LinkedHashMap<>();
        for (String line : ProcFile.lines(proc.resolve("meminfo"))) {
            String[] comps = line.trim().split("\\s+");
            if (comps.length < 2) {
                continue;
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("value", comps[1]);
            if (comps.length > 2) {
                entry.put("unit", comps[2]);
            }
            ret.put(comps[0].replace(":", ""), entry);
        }
        return ret;
    }

    @SaltFunction(doc = "Return the usage of file systems as {path: {'available': bytes, 'total': bytes}}. "
            + "Arguments are absolute paths or file system types (ext4, tmpfs...); none means every mount.\n\n"
            + "CLI Example: salt '*' status.diskusage / /boot ext4")
    public Map<String, Object> diskusage(@VarArgs("args") List<Object> args) {
        Set<String> selected = new LinkedHashSet<>();
        List<Glob> fstypes = new ArrayList<>();
        for (Object arg : args) {
            String text = String.valueOf(arg);
            if (text.startsWith("/")) {
                selected.add(text);
            } else {
                // Salt matches file system types with fnmatch: ext? is ext2, ext3, ext4
                fstypes.add(Glob.of(text));
            }
        }
        boolean all = args.isEmpty();
        Map<String, Object> ret = new LinkedHashMap<>();
        if (all || !fstypes.isEmpty()) {
            for (Mount mount : Mount.parseTable(ProcFile.read(proc.resolve("self/mounts")))) {
                if (all || fstypes.stream().anyMatch(glob -> glob.matches(mount.fsType()))) {
                    // a mount we may not stat (another user's FUSE mount) is left out rather than failing the call
                    DiskSpace.stat(mount).ifPresent(space -> ret.put(mount.mountPoint(), usage(space)));
                }
            }
        }
        for (String path : selected) {
            Mount mount = new Mount(path, path, "", "");
            DiskSpace space = DiskSpace.stat(mount).orElseThrow(() -> new CommandExecutionException(
                    Files.exists(Path.of(path)) ? "Unable to stat the file system of '" + path + "'"
                            : "No such file or directory: '" + path + "'"));
            ret.put(path, usage(space));
        }
        return ret;
    }

    @SaltFunction(doc = "Return the processes as {pid: {'user': ..., 'cmd': ...}}.\n\nCLI Example: salt '*' status.procs")
    public Map<String, Object> procs() {
        Map<Long, String> names = userNames();
        Map<String, Object> ret = new LinkedHashMap<>();
        for (ProcessInfo process : new ProcessTable(proc).all()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("user", names.getOrDefault(process.uid(), Long.toString(process.uid())));
            entry.put("cmd", process.commandText());
            ret.put(Long.toString(process.pid()), entry);
        }
        return ret;
    }

    @SaltFunction(doc = "Return the pids of processes whose command line matches the regular expression sig, "
            + "one per line, as a string (empty when none).\n\nCLI Example: salt '*' status.pid <sig>")
    public String pid(@Arg("sig") String sig) {
        Pattern pattern;
        try {
            pattern = Pattern.compile(sig);
        } catch (PatternSyntaxException e) {
            throw new CommandExecutionException("Invalid regular expression '" + sig + "': " + e.getDescription());
        }
        long self = ProcessHandle.current().pid();
        List<String> pids = new ArrayList<>();
        for (ProcessInfo process : new ProcessTable(proc).all()) {
            if (process.pid() != self && pattern.matcher(process.commandText()).find()) {
                pids.add(Long.toString(process.pid()));
            }
        }
        return String.join("\n", pids);
    }

    @SaltFunction(doc = "Return a list of logged in users: [{'user', 'tty', 'login', 'idle', 'jcpu', 'pcpu', "
            + "'what'}], read from utmp.\n\nCLI Example: salt '*' status.w")
    public List<Map<String, Object>> w() {
        ProcessTable processes = new ProcessTable(proc);
        List<Map<String, Object>> ret = new ArrayList<>();
        for (LoginSession session : LoginSession.read(utmp)) {
            ret.add(LoginReport.describe(session, processes));
        }
        return ret;
    }

    @SaltFunction(doc = "Return a composite of status functions: cpuinfo, diskusage, loadavg, meminfo, uptime, "
            + "w, vmstats.\n\nCLI Example: salt '*' status.all_status")
    public Map<String, Object> all_status() {
        Map<String, Object> ret = new LinkedHashMap<>();
        ret.put("cpuinfo", cpuinfo());
        ret.put("diskusage", diskusage(List.of()));
        ret.put("loadavg", loadavg());
        ret.put("meminfo", meminfo());
        ret.put("uptime", uptime());
        ret.put("vmstats", vmstats());
        ret.put("w", w());
        return ret;
    }

    @SaltFunction(doc = "Return the virtual memory stats from /proc/vmstat as {name: number}.\n\n"
            + "CLI Example: salt '*' status.vmstats")
    public Map<String, Object> vmstats() {
        Map<String, Object> ret = new LinkedHashMap<>();
        for (String line : ProcFile.lines(proc.resolve("vmstat"))) {
            String[] comps = line.trim().split("\\s+");
            if (comps.length == 2) {
                try {
                    ret.put(comps[0], Long.parseLong(comps[1]));
                } catch (NumberFormatException e) {
                    ret.put(comps[0], comps[1]);
                }
            }
        }
        return ret;
    }

    private int distinctUsers() {
        Set<String> users = new TreeSet<>();
        for (LoginSession session : LoginSession.read(utmp)) {
            users.add(session.user());
        }
        return users.size();
    }

    private static Map<Long, String> userNames() {
        Map<Long, String> names = new LinkedHashMap<>();
        try {
            AccountDatabase.system().users().forEach(user -> names.putIfAbsent(user.uid(), user.name()));
        } catch (CommandExecutionException e) {
            // without /etc/passwd, ps shows numbers; so do we
        }
        return names;
    }

    private static Map<String, Object> usage(DiskSpace space) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("available", space.availableBytes());
        entry.put("total", space.totalBytes());
        return entry;
    }
}
