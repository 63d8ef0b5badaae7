package io.jsalt.modules.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.CallResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StatusModuleTest {

    @TempDir
    Path dir;

    private final ModuleCalls system = ModuleCalls.builtIn();
    private Process sleeper;

    @AfterEach
    void stopSleeper() throws InterruptedException {
        if (sleeper != null) {
            sleeper.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }

    private ModuleCalls fakeProc(String file, String content) throws IOException {
        Path proc = Files.createDirectories(dir.resolve("proc"));
        Files.createDirectories(proc.resolve(file).getParent());
        Files.writeString(proc.resolve(file), content);
        return ModuleCalls.of(new StatusModule(proc, dir.resolve("utmp")));
    }

    @Test
    void uptimeGivesSaltsFieldsFromProcUptime() throws IOException {
        long before = System.currentTimeMillis() / 1000;
        Map<String, Object> uptime = fakeProc("uptime", "200000.57 12.0\n").map("status.uptime");
        long after = System.currentTimeMillis() / 1000;

        assertThat(uptime).containsEntry("seconds", 200000L).containsEntry("days", 2L)
                .containsEntry("time", "7:33").containsEntry("users", 0);
        assertThat((Double) uptime.get("since_t")).isBetween((double) before - 200001, (double) after - 200000);
        assertThat((String) uptime.get("since_iso")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d{6})?");
    }

    @Test
    void uptimeOnThisMachineMatchesProcUptime() throws IOException {
        double procSeconds = Double.parseDouble(Files.readString(Path.of("/proc/uptime")).split(" ")[0]);
        Map<String, Object> uptime = system.map("status.uptime");

        assertThat((Long) uptime.get("seconds")).isBetween((long) procSeconds, (long) procSeconds + 5);
        assertThat(uptime).containsKeys("days", "time", "users", "since_iso", "since_t");
    }

    @Test
    void loadavgParsesTheThreeAverages() throws IOException {
        assertThat(fakeProc("loadavg", "0.52 1.25 2.00 3/456 7890\n").map("status.loadavg"))
                .containsExactly(Map.entry("1-min", 0.52), Map.entry("5-min", 1.25), Map.entry("15-min", 2.0));
        assertThat(system.map("status.loadavg")).containsOnlyKeys("1-min", "5-min", "15-min");
    }

    @Test
    void cpuinfoSplitsFlagsAndMatchesProcCpuinfo() throws IOException {
        Map<String, Object> cpuinfo = system.map("status.cpuinfo");
        String modelLine = Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                .filter(line -> line.startsWith("model name")).reduce((first, second) -> second).orElse("x: none");

        if (modelLine.contains(":") && !modelLine.equals("x: none")) {
            assertThat(cpuinfo.get("model name")).isEqualTo(modelLine.split(":", 2)[1].strip());
        }
        assertThat(fakeProc("cpuinfo", "processor\t: 0\nflags\t\t: fpu vme sse\n\n").map("status.cpuinfo"))
                .containsExactly(Map.entry("processor", "0"), Map.entry("flags", List.of("fpu", "vme", "sse")));
    }

    @Test
    void meminfoKeepsValuesAsTextAndUnitsOnlyWhereGiven() throws IOException {
        Map<String, Object> meminfo = fakeProc("meminfo", "MemTotal:       16314060 kB\nHugePages_Total:       0\n")
                .map("status.meminfo");

        assertThat(meminfo).containsExactly(Map.entry("MemTotal", Map.of("value", "16314060", "unit", "kB")),
                Map.entry("HugePages_Total", Map.of("value", "0")));
        String total = Files.readAllLines(Path.of("/proc/meminfo")).get(0).split("\\s+")[1];
        assertThat(system.map("status.meminfo").get("MemTotal")).isEqualTo(Map.of("value", total, "unit", "kB"));
    }

    @Test
    void diskusageOfRootMatchesTheJdksFileStore() throws IOException {
        Map<String, Object> usage = ModuleCalls.asMap(system.map("status.diskusage", "/").get("/"));

        assertThat(usage.get("total")).isEqualTo(Files.getFileStore(Path.of("/")).getTotalSpace());
        assertThat((Long) usage.get("available")).isBetween(0L, (Long) usage.get("total"));
    }

    @Test
    void diskusageSelectsMountsByFileSystemTypeGlob() throws IOException {
        Map<String, Object> byType = fakeProc("self/mounts", "/dev/sda1 / ext4 rw 0 0\nproc /proc proc rw 0 0\n"
                + "tmpfs " + dir + " tmpfs rw 0 0\n").map("status.diskusage", "ext?");

        assertThat(byType).containsOnlyKeys("/");
        assertThat(system.map("status.diskusage")).containsKey("/");
    }

    @Test
    void diskusageOfAMissingPathIsAClearError() {
        assertThat(system.call("status.diskusage", "/no/such/path").ret())
                .isEqualTo("ERROR: No such file or directory: '/no/such/path'");
    }

    @Test
    void procsAndPidFindAProcessWeStarted() throws IOException {
        sleeper = new ProcessBuilder("sleep", "41.25").start();
        String pid = Long.toString(sleeper.pid());

        assertThat(ModuleCalls.asMap(system.map("status.procs").get(pid))).containsEntry("cmd", "sleep 41.25")
                .containsEntry("user", System.getProperty("user.name"));
        assertThat(((String) system.ret("status.pid", "sleep 41\\.25")).split("\n")).containsExactly(pid);
        assertThat(system.ret("status.pid", "no-such-process-pattern-\\d{9}")).isEqualTo("");
        assertThat(system.call("status.pid", "(unclosed").ret()).asString().startsWith("ERROR: Invalid regular expression");
    }

    @Test
    void wReportsTheSessionsOfUtmp() throws IOException {
        sleeper = new ProcessBuilder("sleep", "41.5").start();
        long login = 1_700_000_000L;
        Files.write(dir.resolve("utmp"), utmpRecord(7, sleeper.pid(), "pts/77", "ada", login));
        ModuleCalls calls = ModuleCalls.of(new StatusModule(Path.of("/proc"), dir.resolve("utmp")));

        List<Object> sessions = calls.list("status.w");

        String loginText = DateTimeFormatter.ofPattern("HH:mm")
                .format(LocalDateTime.ofInstant(Instant.ofEpochSecond(login), ZoneId.systemDefault()));
        assertThat(sessions).hasSize(1);
        assertThat(ModuleCalls.asMap(sessions.get(0))).containsEntry("user", "ada").containsEntry("tty", "pts/77")
                .containsEntry("login", loginText).containsEntry("what", "sleep 41.5")
                .containsKeys("idle", "jcpu", "pcpu");
        assertThat(calls.map("status.uptime")).containsEntry("users", 1);
    }

    @Test
    void wSkipsRecordsThatAreNotUserSessionsAndAMissingUtmpMeansNobody() throws IOException {
        Files.write(dir.resolve("utmp"), utmpRecord(8, 1, "pts/1", "gone", 0));
        ModuleCalls calls = ModuleCalls.of(new StatusModule(Path.of("/proc"), dir.resolve("utmp")));

        assertThat(calls.list("status.w")).isEmpty();
        assertThat(ModuleCalls.of(new StatusModule(Path.of("/proc"), dir.resolve("absent"))).list("status.w")).isEmpty();
    }

    @Test
    void allStatusCombinesTheOtherFunctions() {
        Map<String, Object> all = system.map("status.all_status");

        assertThat(all).containsOnlyKeys("cpuinfo", "diskusage", "loadavg", "meminfo", "uptime", "vmstats", "w");
        assertThat(ModuleCalls.asMap(all.get("vmstats"))).containsKey("nr_free_pages");
    }

    @Test
    void aMissingProcFileIsAClearError() {
        CallResult result = ModuleCalls.of(new StatusModule(dir, dir.resolve("utmp"))).call("status.loadavg");

        assertThat(result.retcode()).isEqualTo(1);
        assertThat((String) result.ret()).startsWith("ERROR: Unable to read " + dir.resolve("loadavg"));
    }

    /** glibc's struct utmp on x86-64 and arm64: 384 bytes, little-endian. */
    static byte[] utmpRecord(int type, long pid, String tty, String user, long seconds) {
        ByteBuffer record = ByteBuffer.allocate(384).order(ByteOrder.LITTLE_ENDIAN);
        record.putShort(0, (short) type);
        record.putInt(4, (int) pid);
        record.put(8, tty.getBytes(StandardCharsets.UTF_8));
        record.put(44, user.getBytes(StandardCharsets.UTF_8));
        record.putInt(340, (int) seconds);
        return record.array();
    }
}
