package io.jsalt.modules.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.CallResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PsModuleTest {

    private final ModuleCalls system = ModuleCalls.builtIn();
    private Process sleeper;

    @BeforeEach
    void startSleeper() throws IOException {
        sleeper = new ProcessBuilder("sleep", "42.75").start();
    }

    @AfterEach
    void stopSleeper() throws InterruptedException {
        sleeper.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
    }

    /** One above PID_MAX_LIMIT, the highest pid_max a 64-bit kernel allows: there can be no such process. */
    private static long impossiblePid() {
        return 4_194_305L;
    }

    @Test
    void killPidSendsSigtermToTheProcess() throws InterruptedException {
        assertThat(system.ret("ps.kill_pid", sleeper.pid())).isEqualTo(true);

        assertThat(sleeper.waitFor(5, TimeUnit.SECONDS)).isTrue();
        assertThat(sleeper.exitValue()).isEqualTo(128 + 15);
    }

    @Test
    void killPidSendsTheSignalAsked() throws InterruptedException {
        assertThat(system.ret("ps.kill_pid", sleeper.pid(), ModuleCalls.kwargs("signal", 9))).isEqualTo(true);

        assertThat(sleeper.waitFor(5, TimeUnit.SECONDS)).isTrue();
        assertThat(sleeper.exitValue()).isEqualTo(128 + 9);
    }

    @Test
    void killPidOfNoProcessIsFalseAsInSalt() {
        assertThat(system.ret("ps.kill_pid", impossiblePid())).isEqualTo(false);
        assertThat(system.call("ps.kill_pid", sleeper.pid(), ModuleCalls.kwargs("signal", 99)).ret())
                .isEqualTo("ERROR: Invalid signal 99");
        assertThat(sleeper.isAlive()).isTrue();
    }

    @Test
    void pgrepFindsTheProcessByNameAndByFullCommandLine() {
        assertThat(system.list("ps.pgrep", "sleep")).contains(sleeper.pid());
        assertThat(system.list("ps.pgrep", "42\\.7[5]", ModuleCalls.kwargs("full", true, "pattern_is_regex", true)))
                .containsExactly(sleeper.pid());
        assertThat(system.list("ps.pgrep", "sleep", ModuleCalls.kwargs("user", System.getProperty("user.name"))))
                .contains(sleeper.pid());
        assertThat(system.ret("ps.pgrep", "no-process-is-called-this")).isNull();
    }

    @Test
    void procInfoDescribesTheProcess() {
        Map<String, Object> info = system.map("ps.proc_info", sleeper.pid());

        assertThat(info).containsEntry("pid", sleeper.pid()).containsEntry("name", "sleep")
                .containsEntry("cmdline", List.of("sleep", "42.75")).containsEntry("ppid", ProcessHandle.current().pid())
                .containsEntry("username", System.getProperty("user.name"));
        double expectedStart = sleeper.info().startInstant().orElseThrow().toEpochMilli() / 1000.0;
        assertThat((Double) info.get("create_time")).isBetween(expectedStart - 2, expectedStart + 2);
        assertThat(system.map("ps.proc_info", sleeper.pid(), ModuleCalls.kwargs("attrs", List.of("pid", "status"))))
                .containsOnlyKeys("pid", "status");
    }

    @Test
    void procInfoOfNoProcessOrAnUnknownAttributeIsAClearError() {
        CallResult missing = system.call("ps.proc_info", impossiblePid());

        assertThat(missing.retcode()).isEqualTo(1);
        assertThat((String) missing.ret()).startsWith("ERROR: psutil.NoSuchProcess");
        assertThat(system.call("ps.proc_info", sleeper.pid(), ModuleCalls.kwargs("attrs", List.of("bogus"))).ret())
                .isEqualTo("ERROR: invalid attr name 'bogus'");
    }

    @Test
    void topListsTheBusiestProcessesWithPsutilsFields() {
        List<Object> top = system.list("ps.top", ModuleCalls.kwargs("num_processes", 3, "interval", 0.05));

        assertThat(top).hasSize(3);
        assertThat(ModuleCalls.asMap(top.get(0))).containsKeys("cmd", "user", "status", "pid", "create_time")
                .extractingByKey("cpu").satisfies(cpu -> assertThat(ModuleCalls.asMap(cpu))
                        .containsKeys("user", "system", "children_user", "children_system"));
        assertThat(ModuleCalls.asMap(ModuleCalls.asMap(top.get(0)).get("mem"))).containsKeys("rss", "vms");
    }

    @Test
    void cpuPercentIsAPercentageOverallAndPerCpu() {
        assertThat((Double) system.ret("ps.cpu_percent", ModuleCalls.kwargs("interval", 0.05))).isBetween(0.0, 100.0);
        List<Object> perCpu = system.list("ps.cpu_percent", ModuleCalls.kwargs("interval", 0, "per_cpu", true));
        assertThat(perCpu).hasSize(countCpuLines())
                .allSatisfy(value -> assertThat((Double) value).isBetween(0.0, 100.0));
    }

    private static int countCpuLines() {
        try {
            return (int) Files.readAllLines(Path.of("/proc/stat")).stream().filter(line -> line.matches("cpu\\d+ .*"))
                    .count();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void virtualMemoryMatchesProcMeminfo() throws IOException {
        Map<String, Object> memory = system.map("ps.virtual_memory");
        long totalKib = Long.parseLong(Files.readAllLines(Path.of("/proc/meminfo")).get(0).split("\\s+")[1]);

        assertThat(memory).containsOnlyKeys("total", "available", "percent", "used", "free", "active", "inactive",
                "buffers", "cached", "shared", "slab");
        assertThat(memory.get("total")).isEqualTo(totalKib * 1024);
        assertThat((Double) memory.get("percent")).isBetween(0.0, 100.0);
    }

    @Test
    void diskPartitionsListsPhysicalFileSystemsOrAllOfThem() throws IOException {
        List<Object> all = system.list("ps.disk_partitions", ModuleCalls.kwargs("all", true));
        List<Object> physical = system.list("ps.disk_partitions");
        long mountLines = Files.readAllLines(Path.of("/proc/self/mounts")).size();

        assertThat(all).hasSize((int) mountLines);
        assertThat(all).containsAll(physical);
        assertThat(all).extracting(partition -> ModuleCalls.asMap(partition).get("mountpoint")).contains("/proc");
        assertThat(physical).extracting(partition -> ModuleCalls.asMap(partition).get("fstype")).doesNotContain("proc");
        assertThat(ModuleCalls.asMap(all.get(0))).containsOnlyKeys("device", "mountpoint", "fstype", "opts");
    }
}
