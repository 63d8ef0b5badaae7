package io.jsalt.modules.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskModuleTest {

    @TempDir
    Path dir;

    private final ModuleCalls system = ModuleCalls.builtIn();

    @Test
    void usageOfRootHasDfsColumnsAndMatchesTheJdk() throws IOException {
        Map<String, Object> root = ModuleCalls.asMap(system.map("disk.usage").get("/"));
        FileStore store = Files.getFileStore(Path.of("/"));

        assertThat(root).containsOnlyKeys("filesystem", "1K-blocks", "used", "available", "capacity");
        assertThat(root.get("1K-blocks")).isEqualTo(Long.toString(store.getTotalSpace() / 1024));
        long used = Long.parseLong((String) root.get("used"));
        long available = Long.parseLong((String) root.get("available"));
        long expectedPercent = (used * 100 + used + available - 1) / (used + available);
        assertThat(root.get("capacity")).isEqualTo(expectedPercent + "%");
    }

    @Test
    void usageReadsTheMountTableAndSkipsEmptyFileSystemsUnlessAskedForAll() throws IOException {
        Path mounts = Files.writeString(dir.resolve("mounts"),
                "rootdev / ext4 rw 0 0\nproc /proc proc rw 0 0\nspaced " + dir.toString().replace(" ", "\\040")
                        + " tmpfs rw 0 0\n");
        ModuleCalls calls = ModuleCalls.of(new DiskModule(mounts));

        assertThat(calls.map("disk.usage")).containsOnlyKeys("/", dir.toString());
        assertThat(ModuleCalls.asMap(calls.map("disk.usage").get("/"))).containsEntry("filesystem", "rootdev");
        assertThat(calls.map("disk.usage", "a")).containsKeys("/", "/proc", dir.toString());
        assertThat(ModuleCalls.asMap(calls.map("disk.usage", "a").get("/proc"))).containsEntry("capacity", "-");
    }

    @Test
    void usageRefusesFlagsDfWouldNotTake() {
        assertThat(system.call("disk.usage", "a; rm -rf /").ret()).isEqualTo("ERROR: Invalid flag passed to disk.usage");
        assertThat(system.call("disk.inodeusage", "z").ret()).isEqualTo("ERROR: Invalid flag passed to disk.inodeusage");
    }

    @Test
    void inodeusageOfRootAddsUp() {
        Map<String, Object> root = ModuleCalls.asMap(system.map("disk.inodeusage").get("/"));

        assertThat(root).containsOnlyKeys("inodes", "used", "free", "use", "filesystem");
        assertThat(Long.parseLong((String) root.get("used")) + Long.parseLong((String) root.get("free")))
                .isEqualTo(Long.parseLong((String) root.get("inodes")));
        assertThat((String) root.get("use")).endsWith("%");
    }

    @Test
    void percentAgreesWithUsage() {
        Map<String, Object> usage = system.map("disk.usage");
        Map<String, Object> percent = system.map("disk.percent");

        assertThat(percent.keySet()).isEqualTo(usage.keySet());
        assertThat(system.ret("disk.percent", "/")).isEqualTo(ModuleCalls.asMap(usage.get("/")).get("capacity"));
    }

    @Test
    void percentOfAnUnknownMountPointIsSaltsError() {
        assertThat(system.call("disk.percent", "/no/such/mount").ret())
                .isEqualTo("ERROR: Invalid mount point: /no/such/mount");
    }
}
