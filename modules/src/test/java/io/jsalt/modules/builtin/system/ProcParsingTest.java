package io.jsalt.modules.builtin.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProcParsingTest {

    @Test
    void mountFieldsAreUnescaped() {
        List<Mount> mounts = Mount.parseTable("/dev/sdb1 /media/my\\040disk vfat rw,noatime 0 0\nshort line\n");

        assertThat(mounts).containsExactly(new Mount("/dev/sdb1", "/media/my disk", "vfat", "rw,noatime"));
    }

    @Test
    void statTakesTheNameFromTheOutermostParentheses() {
        String stat = "4242 (we ird) name) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 3 4 20 0 2 0 12345 "
                + "1000000 50 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0";
        String status = "Name:\twe ird\nUid:\t1000\t1000\t1000\t1000\nVmRSS:\t    2048 kB\n";

        ProcessInfo info = ProcessTable.parse(4242, stat, status, "prog\0--flag\0".getBytes(StandardCharsets.UTF_8));

        assertThat(info.name()).isEqualTo("we ird) name");
        assertThat(info.ppid()).isEqualTo(1);
        assertThat(info.state()).isEqualTo("S");
        assertThat(info.userTicks()).isEqualTo(250);
        assertThat(info.systemTicks()).isEqualTo(75);
        assertThat(info.childTicks()).containsExactly(3, 4);
        assertThat(info.threads()).isEqualTo(2);
        assertThat(info.startTicks()).isEqualTo(12345);
        assertThat(info.vmsBytes()).isEqualTo(1000000);
        assertThat(info.rssBytes()).isEqualTo(2048 * 1024);
        assertThat(info.uid()).isEqualTo(1000);
        assertThat(info.cmdline()).containsExactly("prog", "--flag");
        assertThat(info.commandText()).isEqualTo("prog --flag");
    }

    @Test
    void ourOwnProcessReadsLikeTheJdkSeesIt() {
        ProcessHandle self = ProcessHandle.current();

        ProcessInfo info = ProcessTable.system().find(self.pid()).orElseThrow();

        assertThat(info.ppid()).isEqualTo(self.parent().orElseThrow().pid());
        assertThat(info.cmdline().get(0)).isEqualTo(self.info().command().orElseThrow());
        assertThat(info.statusName()).isIn("running", "sleeping");
        assertThat(ProcessTable.system().all()).extracting(ProcessInfo::pid).contains(self.pid(), 1L);
    }

    @Test
    void busyPercentCountsIdleAndIowaitAsIdle() {
        long[] before = {100, 0, 100, 700, 100, 0, 0, 0, 0, 0};
        long[] after = {200, 0, 200, 900, 100, 0, 0, 0, 50, 0};

        // 200 busy of 400 ticks; guest time is already inside user
        assertThat(CpuTimes.busyPercent(before, after)).isEqualTo(50.0);
        assertThat(CpuTimes.busyPercent(after, after)).isEqualTo(0.0);
    }

    @Test
    void cpuTimesReadTotalsPerCpuLinesAndBootTime() {
        CpuTimes times = CpuTimes.parse("cpu  1 2 3 4\ncpu0 1 1 1 1\ncpu1 0 1 2 3\nintr 5 6\nbtime 1700000000\n");

        assertThat(times.total()).containsExactly(1, 2, 3, 4);
        assertThat(times.perCpu()).hasSize(2);
        assertThat(times.bootTime()).isEqualTo(1_700_000_000L);
    }

    @Test
    void dfInodeOutputKeepsDfsTextAndJoinsDeviceNamesWithSpaces() {
        List<InodeCount> counts = InodeCount.parseDf("""
                Filesystem       Inodes  IUsed    IFree IUse% Mounted on
                /dev/vda       16777216 412055 16365161    3% /
                my share        -       -        -        -  /mnt/share
                """);

        assertThat(counts).containsExactly(new InodeCount("/dev/vda", "/", "16777216", "412055", "16365161", "3%"),
                new InodeCount("my share", "/mnt/share", "-", "-", "-", "-"));
    }

    @Test
    void meminfoValuesAreInBytes() {
        MemInfo mem = MemInfo.parse("MemTotal:  1000 kB\nHugePages_Total:   3\n");

        assertThat(mem.bytes("MemTotal")).isEqualTo(1_024_000);
        assertThat(mem.bytes("HugePages_Total")).isEqualTo(3);
        assertThat(mem.bytes("Missing")).isZero();
    }
}
