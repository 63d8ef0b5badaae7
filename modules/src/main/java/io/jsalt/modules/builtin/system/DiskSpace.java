package io.jsalt.modules.builtin.system;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Space on a mounted file system, the way {@code df -P} counts it: used is total minus free, available is
 * what an unprivileged user may still write, and capacity rounds up like df.
 */
public record DiskSpace(String filesystem, String mountPoint, long totalBytes, long usedBytes, long availableBytes) {

    /** The file systems df lists by default: each mount point once (the top mount wins), size above zero. */
    public static List<DiskSpace> of(List<Mount> mounts) {
        return collect(mounts, false);
    }

    /** What {@code df -a} lists: file systems of size 0 (proc, sysfs...) too. */
    public static List<DiskSpace> all(List<Mount> mounts) {
        return collect(mounts, true);
    }

    private static List<DiskSpace> collect(List<Mount> mounts, boolean includeEmpty) {
        Map<String, DiskSpace> byMountPoint = new LinkedHashMap<>();
        for (Mount mount : mounts) {
            stat(mount).filter(space -> includeEmpty || space.totalBytes() > 0).ifPresent(space -> {
                byMountPoint.remove(mount.mountPoint());
                byMountPoint.put(mount.mountPoint(), space);
            });
        }
        return List.copyOf(byMountPoint.values());
    }

    /** The space of one mount, or empty when it has no size or cannot be read (permission, stale NFS). */
    public static Optional<DiskSpace> measure(Mount mount) {
        return stat(mount).filter(space -> space.totalBytes() > 0);
    }

    /** The space of one mount, zero-sized ones included; empty when it cannot be read. */
    public static Optional<DiskSpace> stat(Mount mount) {
        try {
            FileStore store = Files.getFileStore(Path.of(mount.mountPoint()));
            long total = store.getTotalSpace();
            long free = store.getUnallocatedSpace();
            return Optional.of(new DiskSpace(mount.device(), mount.mountPoint(), total, total - free,
                    store.getUsableSpace()));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** df's Use%: used over what users can reach (used + available), rounded up; "-" without space. */
    public String capacity() {
        long reachable = usedBytes + availableBytes;
        if (reachable <= 0) {
            return "-";
        }
        long percent = (usedBytes * 100 + reachable - 1) / reachable;
        return percent + "%";
    }
}
