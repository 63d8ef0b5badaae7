package io.jsalt.minion.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code user=}: a root minion runs the program as that user, the program's own process (setpriv execs it); a
 * minion that is not root refuses the definition rather than run it as itself. Which of the two this test proves
 * depends on the user running it (CI runs as root, as the PostgreSQL tests also expect); each asserts its outcome.
 */
class UserTest {
    @TempDir
    Path dir;
    private SupervisorHarness harness;

    @AfterEach
    void killEveryChild() {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void aRootMinionRunsTheProgramAsItsUserAnOtherMinionRefusesIt() throws Exception {
        Map<String, Object> program = Map.of("command", "sh -c 'id -u; exec sleep 1017'", "user", "nobody", "startsecs", "0");
        if (CommandLines.ownUid() != 0) {
            assertThatThrownBy(() -> new SupervisorHarness(dir, Map.of("app", program)).start())
                    .isInstanceOf(ConfigException.class).hasMessageContaining("only a minion running as root");
            return;
        }
        RunAs nobody = RunAs.lookup("nobody").orElseThrow();
        harness = new SupervisorHarness(dir, Map.of("app", program)).start();

        long pid = harness.awaitState("app", ProcessState.RUNNING).pid();
        org.awaitility.Awaitility.await().until(() -> LogTail.lastLines(harness.logDir.resolve("app-stdout.log"), 1)
                .equals(nobody.uid() + "\n"));
        assertThat(CommandLines.uidOf(pid)).hasValue(nobody.uid());
        assertThat(CommandLines.commandLine(Path.of("/proc", Long.toString(pid)))).contains("sleep 1017");
        // its log was opened by the minion: still the minion's, 0600, written by the program through its descriptor
        assertThat(Files.getOwner(harness.logDir.resolve("app-stdout.log")).getName()).isEqualTo("root");

        assertThat(harness.supervisor.stopProcesses("app")).containsExactly("app: stopped");
    }

    @Test
    void aPidfileOfTheProgramsUserIsBelievedOnlyForThatUsersProcess() throws Exception {
        Path pidfile = dir.resolve("app.pid");
        Map<String, Object> program = Map.of("command", "true", "user", "nobody", "pidfile", pidfile.toString(),
                "startsecs", "0", "startretries", "0");
        if (CommandLines.ownUid() != 0) {
            assertThatThrownBy(() -> new SupervisorHarness(dir, Map.of("app", program)).start())
                    .isInstanceOf(ConfigException.class).hasMessageContaining("only a minion running as root");
            return;
        }
        Process mine = new ProcessBuilder("sleep", "1019").start(); // root's, like sshd
        try {
            Files.writeString(pidfile, mine.pid() + "\n");
            Files.setOwner(pidfile, dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
            assertThat(PidFile.read(pidfile, RunAs.lookup("nobody").orElseThrow())).as("nobody names root's process").isEmpty();

            harness = new SupervisorHarness(dir, Map.of("app", program)).start();
            harness.awaitState("app", ProcessState.FATAL);
            assertThat(harness.statesOf("app")).doesNotContain(ProcessState.RUNNING);
            assertThat(mine.isAlive()).isTrue();
        } finally {
            mine.destroyForcibly();
        }
    }
}
