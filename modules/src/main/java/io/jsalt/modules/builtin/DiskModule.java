package io.jsalt.modules.builtin;

import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.builtin.system.DiskSpace;
import io.jsalt.modules.builtin.system.InodeCount;
import io.jsalt.modules.builtin.system.Mount;
import io.jsalt.modules.builtin.system.ProcFile;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Salt's {@code disk} module on Linux: {@code df}'s view of mounted file systems, keyed by mount point,
 * with df's columns as strings, as Salt parses them out of {@code df -P}.
 */
@SaltModule(name = "disk", doc = "Return information about mounted file systems (Salt's disk module).")
public final class DiskModule implements ExecutionModule {

    private final Path mounts;

    public DiskModule() {
        this(Path.of("/proc/self/mounts"));
    }

    /** For tests: another mount table. */
    public DiskModule(Path mounts) {
        this.mounts = mounts;
    }

    @SaltFunction(doc = "Return usage information for the mounted file systems: {mount point: {'filesystem', "
            + "'1K-blocks', 'used', 'available', 'capacity'}}. args are df flags (as in Salt); 'a' adds the"
            + " file systems of size 0.\n\n"
            + "CLI Example: salt '*' disk.usage")
    public Map<String, Object> usage(@Arg(value = "args", defaultValue = Arg.NULL) String args) {
        String flags = DfFlags.clean(args, "disk.usage");
        Map<String, Object> ret = new LinkedHashMap<>();
        for (DiskSpace space : flags.contains("a") ? DiskSpace.all(mountTable()) : spaces()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("filesystem", space.filesystem());
            entry.put("1K-blocks", Long.toString(space.totalBytes() / 1024));
            entry.put("used", Long.toString(space.usedBytes() / 1024));
            entry.put("available", Long.toString(space.availableBytes() / 1024));
            entry.put("capacity", space.capacity());
            ret.put(space.mountPoint(), entry);
        }
        return ret;
    }

    @SaltFunction(doc = "Return inode usage information for the mounted file systems: {mount point: "
            + "{'inodes', 'used', 'free', 'use', 'filesystem'}}, from df -iP; args are df flags.\n\nCLI Example: salt '*' disk.inodeusage")
    public Map<String, Object> inodeusage(@Arg(value = "args", defaultValue = Arg.NULL) String args) {
        Map<String, Object> ret = new LinkedHashMap<>();
        for (InodeCount count : InodeCount.measure(DfFlags.clean(args, "disk.inodeusage"))) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("inodes", count.inodes());
            entry.put("used", count.used());
            entry.put("free", count.free());
            entry.put("use", count.usePercent());
            entry.put("filesystem", count.filesystem());
            ret.put(count.mountPoint(), entry);
        }
        return ret;
    }

    @SaltFunction(doc = "Return the capacity of the mounted file systems as {mount point: 'N%'}, or one mount "
            + "point's capacity when args names it.\n\nCLI Example: salt '*' disk.percent /var")
    public Object percent(@Arg(value = "args", defaultValue = Arg.NULL) String args) {
        Map<String, Object> ret = new LinkedHashMap<>();
        for (DiskSpace space : spaces()) {
            ret.put(space.mountPoint(), space.capacity());
        }
        if (args == null) {
            return ret;
        }
        Object capacity = ret.get(args);
        if (capacity == null) {
            // Salt's message, word for word
            throw new CommandExecutionException("Invalid mount point: " + args);
        }
        return capacity;
    }

    private List<DiskSpace> spaces() {
        return DiskSpace.of(mountTable());
    }

    private List<Mount> mountTable() {
        return Mount.parseTable(ProcFile.read(mounts));
    }
}
