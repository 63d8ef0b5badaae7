package io.jsalt.modules.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CoreGrainsTest {

    private final Map<String, Object> grains = CoreGrains.collect("core-test");

    @Test
    void identityAndKernelGrainsArePresent() {
        assertThat(grains).containsEntry("id", "core-test").containsEntry("kernel", "Linux");
        assertThat(grains.get("kernelrelease")).isEqualTo(System.getProperty("os.version"));
        assertThat(grains.get("cpuarch")).isInstanceOf(String.class);
        assertThat(grains.get("jvm_version")).isEqualTo(System.getProperty("java.version"));
        assertThat((String) grains.get("jsaltversion")).matches("\\d+\\.\\d+\\.\\d+.*");
    }

    @Test
    void osGrainsFollowSaltsNamesForThisMachine() throws Exception {
        Map<String, String> osRelease = io.jsalt.modules.builtin.grains.OsReleaseGrains.parse(
                Files.readString(Path.of("/etc/os-release")));

        assertThat(grains.get("osfullname")).isEqualTo(osRelease.get("NAME"));
        assertThat(grains.get("os")).isInstanceOf(String.class).isNotEqualTo("");
        assertThat(grains.get("os_family")).isInstanceOf(String.class);
        if ("debian".equals(osRelease.get("ID"))) {
            assertThat(grains).containsEntry("os", "Debian").containsEntry("os_family", "Debian");
        }
        assertThat(grains.get("osrelease")).isEqualTo(osRelease.get("VERSION_ID"));
        assertThat(grains.get("osmajorrelease")).isInstanceOf(Integer.class);
    }

    @Test
    void hardwareGrainsAreTypedLikeSalts() {
        assertThat(grains.get("num_cpus")).isInstanceOf(Integer.class);
        assertThat((Integer) grains.get("num_cpus")).isPositive();
        assertThat(grains.get("mem_total")).isInstanceOf(Integer.class);
        assertThat((Integer) grains.get("mem_total")).isPositive();
        assertThat(grains.get("cpu_model")).isInstanceOf(String.class);
    }

    @Test
    void networkGrainsListEveryAddressIncludingLoopback() {
        assertThat(grains.get("ipv4")).asList().contains("127.0.0.1").allMatch(ip -> ip instanceof String);
        assertThat(grains.get("ipv6")).asList().allMatch(ip -> ip instanceof String && !((String) ip).contains("%"));
        assertThat(grains.get("ip4_interfaces")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsKey("lo");
        assertThat(grains.get("hwaddr_interfaces")).isInstanceOf(Map.class);
    }

    @Test
    void hostGrainsAgreeWithEachOther() throws Exception {
        String fqdn = (String) grains.get("fqdn");
        String host = (String) grains.get("host");
        String domain = (String) grains.get("domain");

        assertThat(domain.isEmpty() ? host : host + "." + domain).isEqualTo(fqdn);
        assertThat(grains.get("localhost")).isEqualTo(Files.readString(Path.of("/proc/sys/kernel/hostname")).strip());
        assertThat(InetAddress.getLocalHost()).isNotNull();
    }

    @Test
    void processGrainsDescribeTheMinionProcess() {
        assertThat(grains.get("pid")).isEqualTo(ProcessHandle.current().pid());
        assertThat(grains.get("uid")).isInstanceOf(Integer.class);
        assertThat(grains.get("username")).isEqualTo(System.getProperty("user.name"));
    }

    @Test
    void missingSystemFilesOnlyDropTheirGrains(@TempDir Path emptyRoot) {
        Map<String, Object> sparse = CoreGrains.collect("bare", emptyRoot);

        assertThat(sparse).containsEntry("id", "bare").containsKeys("kernel", "num_cpus", "ipv4", "jsaltversion", "host");
        assertThat(sparse).doesNotContainKeys("os", "mem_total", "cpu_model", "machine_id");
    }

    @Test
    void aFakeRootIsReadForFileBasedGrains(@TempDir Path root) throws Exception {
        Files.createDirectories(root.resolve("etc"));
        Files.createDirectories(root.resolve("proc"));
        Files.writeString(root.resolve("etc/os-release"),
                "NAME=\"Rocky Linux\"\nID=\"rocky\"\nID_LIKE=\"rhel centos fedora\"\nVERSION_ID=\"9.3\"\n");
        Files.writeString(root.resolve("proc/meminfo"), "MemTotal:        2048000 kB\nSwapTotal:       1024 kB\n");

        Map<String, Object> fake = CoreGrains.collect("rocky1", root);

        assertThat(fake).containsEntry("os", "Rocky").containsEntry("os_family", "RedHat")
                .containsEntry("osrelease", "9.3").containsEntry("osmajorrelease", 9)
                .containsEntry("osfinger", "Rocky Linux-9").containsEntry("osrelease_info", List.of(9, 3))
                .containsEntry("mem_total", 2000).containsEntry("swap_total", 1);
    }
}
