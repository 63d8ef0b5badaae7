package io.jsalt.minion.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** pgrep -f's search over a /proc: only the minion's user's live processes, the oldest first. */
class CommandLinesTest {
    @TempDir
    Path proc;

    /** A process in the fake /proc: its status's Uid line (real, effective), its state and start time, its argv. */
    private void process(String pid, int realUid, int effectiveUid, String state, long ticks, String... argv) throws Exception {
        Path dir = Files.createDirectories(proc.resolve(pid));
        Files.writeString(dir.resolve("status"), "Name:\tx\nUid:\t" + realUid + "\t" + effectiveUid + "\t0\t0\n");
        StringBuilder stat = new StringBuilder(pid + " (some (odd) name) " + state);
        for (int field = 4; field <= 21; field++) {
            stat.append(" 0");
        }
        stat.append(' ').append(ticks).append(" 0 0\n");
        Files.writeString(dir.resolve("stat"), stat);
        Files.writeString(dir.resolve("cmdline"), String.join("\0", argv) + "\0");
    }

    @Test
    void findsTheMinionsUsersLiveProcessesByTheirCommandLineOldestFirst() throws Exception {
        process("self", 1000, 1000, "S", 1, "java", "-jar", "minion.jar");
        process("300", 1000, 1000, "S", 500, "/opt/app/bin/app", "--port", "8080");
        process("200", 1000, 1000, "S", 400, "/opt/app/bin/app", "--port", "8081");
        process("400", 33, 33, "S", 100, "/opt/app/bin/app", "--port", "8082"); // another user's
        process("500", 33, 1000, "S", 100, "/opt/app/bin/app", "--port", "8083"); // set-uid to the minion's: refused
        process("600", 1000, 1000, "Z", 100, "/opt/app/bin/app", "--port", "8084"); // a zombie
        process("700", 1000, 1000, "S", 100, "/opt/other"); // does not match
        process("800", 1000, 1000, "S", 100); // a kernel thread: no command line
        process("900", 1000, 1000, "S", 50, "/opt/app/bin/app", "--port", "9999"); // excluded: the supervisor's own

        var found = CommandLines.matching(proc, Pattern.compile("app --port \\d+"), Set.of(900L), -1);

        assertThat(found).extracting(CommandLines.Match::pid).containsExactly(200L, 300L);
        assertThat(found.get(0).commandLine()).isEqualTo("/opt/app/bin/app --port 8081");
        assertThat(found.get(0).ticks()).isEqualTo(400);
    }

    @Test
    void aProgramOfAnotherUserFindsThatUsersProcessesOnly() throws Exception {
        process("self", 0, 0, "S", 1, "java", "-jar", "minion.jar");
        process("300", 0, 0, "S", 500, "/opt/app/bin/app");
        process("400", 33, 33, "S", 600, "/opt/app/bin/app");

        assertThat(CommandLines.matching(proc, Pattern.compile("app"), Set.of(), 33)).extracting(CommandLines.Match::pid)
                .containsExactly(400L);
    }

    @Test
    void withoutItsOwnUidNothingIsFound() throws Exception {
        process("300", 1000, 1000, "S", 500, "/opt/app/bin/app");
        assertThat(CommandLines.matching(proc, Pattern.compile("app"), Set.of(), -1)).isEmpty();
    }
}
