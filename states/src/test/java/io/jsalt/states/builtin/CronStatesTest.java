package io.jsalt.states.builtin;

import static io.jsalt.states.TestCalls.call;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.states.builtin.cron.CrontabStore;
import io.jsalt.states.run.StateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** cron.present and cron.absent on crontab files in a spool folder of their own (this machine has no crontab command). */
class CronStatesTest {
    @TempDir
    Path files;
    @TempDir
    Path spool;
    private CronStates cron;

    @BeforeEach
    void aSpool() {
        cron = new CronStates(CrontabStore.spool(spool));
    }

    private String tab() throws Exception {
        return Files.readString(spool.resolve("root"));
    }

    @Test
    void presentAddsAJobWithSaltsIdentifierAndKeepsTheLinesBeforeSaltsTag() throws Exception {
        Files.writeString(spool.resolve("root"), "MAILTO=ops\n# mine\n5 4 * * * /usr/bin/mine\n");
        StateResult test = cron.present(call(files, true, "/usr/bin/backup", "minute", 30, "hour", 2));
        assertThat(test.result()).isNull();
        assertThat(test.comment()).isEqualTo("Cron /usr/bin/backup is set to be added");

        StateResult r = cron.present(call(files, false, "/usr/bin/backup", "minute", 30, "hour", 2));
        assertThat(r.result()).isTrue();
        assertThat(r.comment()).isEqualTo("Cron /usr/bin/backup added to root's crontab");
        assertThat(r.changes()).isEqualTo(Map.of("root", "/usr/bin/backup"));
        assertThat(tab()).isEqualTo("MAILTO=ops\n# mine\n5 4 * * * /usr/bin/mine\n"
                + "# Lines below here are managed by Salt, do not edit\n"
                + "# SALT_CRON_IDENTIFIER:/usr/bin/backup\n"
                + "30 2 * * * /usr/bin/backup\n");
        assertThat(Files.getPosixFilePermissions(spool.resolve("root"))).isEqualTo(PosixFilePermissions.fromString("rw-------"));

        assertThat(cron.present(call(files, false, "/usr/bin/backup", "minute", 30, "hour", 2)).comment())
                .isEqualTo("Cron /usr/bin/backup already present");
        assertThat(cron.present(call(files, true, "/usr/bin/backup", "minute", 30, "hour", 2)).result()).isTrue();
    }

    @Test
    void presentUpdatesTheJobOfItsIdentifier() throws Exception {
        cron.present(call(files, false, "/usr/bin/backup --full", "identifier", "backup", "minute", 30, "comment", "nightly"));
        assertThat(cron.present(call(files, true, "/usr/bin/backup --fast", "identifier", "backup", "minute", 30,
                "comment", "nightly")).comment()).isEqualTo("Cron /usr/bin/backup --fast is set to be updated");

        StateResult r = cron.present(call(files, false, "/usr/bin/backup --fast", "identifier", "backup",
                "minute", 45, "dayweek", 1, "comment", "nightly"));
        assertThat(r.comment()).isEqualTo("Cron /usr/bin/backup --fast updated");
        assertThat(r.changes()).isEqualTo(Map.of("root", "/usr/bin/backup --fast"));
        assertThat(tab()).isEqualTo("# Lines below here are managed by Salt, do not edit\n"
                + "# nightly SALT_CRON_IDENTIFIER:backup\n"
                + "45 * * * 1 /usr/bin/backup --fast\n");
    }

    @Test
    void specialAndCommentedJobs() throws Exception {
        cron.present(call(files, false, "/usr/bin/boot", "special", "@reboot"));
        cron.present(call(files, false, "/usr/bin/off", "commented", true));
        assertThat(tab()).isEqualTo("# Lines below here are managed by Salt, do not edit\n"
                + "# SALT_CRON_IDENTIFIER:/usr/bin/off\n"
                + "#DISABLED#* * * * * /usr/bin/off\n"
                + "# SALT_CRON_IDENTIFIER:/usr/bin/boot\n"
                + "@reboot /usr/bin/boot\n");
        assertThat(cron.present(call(files, false, "/usr/bin/boot", "special", "@reboot")).comment())
                .isEqualTo("Cron /usr/bin/boot already present");
        StateResult r = cron.absent(call(files, false, "/usr/bin/boot", "special", "@reboot"));
        assertThat(r.comment()).isEqualTo("Cron /usr/bin/boot removed from root's crontab");
        assertThat(tab()).doesNotContain("@reboot");
    }

    @Test
    void absentRemovesTheJobAndOnlyIt() throws Exception {
        cron.present(call(files, false, "/usr/bin/a"));
        cron.present(call(files, false, "/usr/bin/b", "hour", 3));
        StateResult test = cron.absent(call(files, true, "/usr/bin/a"));
        assertThat(test.result()).isNull();
        assertThat(test.comment()).isEqualTo("Cron /usr/bin/a is set to be removed");
        assertThat(tab()).contains("/usr/bin/a");

        StateResult r = cron.absent(call(files, false, "/usr/bin/a"));
        assertThat(r.result()).isTrue();
        assertThat(r.changes()).isEqualTo(Map.of("root", "/usr/bin/a"));
        assertThat(tab()).isEqualTo("# Lines below here are managed by Salt, do not edit\n"
                + "# SALT_CRON_IDENTIFIER:/usr/bin/b\n* 3 * * * /usr/bin/b\n");
        assertThat(cron.absent(call(files, false, "/usr/bin/a")).comment()).isEqualTo("Cron /usr/bin/a already absent");
        assertThat(cron.absent(call(files, true, "/usr/bin/a")).comment()).isEqualTo("Cron /usr/bin/a is absent");
    }

    @Test
    void aUserNameCannotLeaveTheSpoolAndAnUnknownUserFails() {
        StateResult r;
        try {
            r = cron.present(call(files, false, "/bin/x", "user", "../etc"));
        } catch (RuntimeException e) {
            r = StateResult.failed(e.getMessage());
        }
        assertThat(r.result()).isFalse();
        assertThat(spool.getParent().resolve("etc")).doesNotExist();
        StateResult unknown = cron.present(call(files, false, "/bin/x", "user", "jsalt-nosuch-user"));
        assertThat(unknown.result()).isFalse();
        assertThat(unknown.comment()).isEqualTo("Cron /bin/x for user jsalt-nosuch-user failed to commit with error \n"
                + "user 'jsalt-nosuch-user' unknown");
        assertThat(spool.resolve("jsalt-nosuch-user")).doesNotExist();
    }

    @Test
    void fieldsThatWouldBreakTheCrontabAreRefused() throws Exception {
        assertThat(cron.present(call(files, false, "/bin/x", "minute", "* * * * * /bin/evil #")).comment())
                .isEqualTo("Cron /bin/x: invalid time field '* * * * * /bin/evil #' (no spaces allowed)");
        assertThat(cron.present(call(files, false, "/bin/x\n* * * * * /bin/evil")).result()).isFalse();
        assertThat(cron.present(call(files, false, "/bin/x", "special", "@daily /bin/evil")).result()).isFalse();
        assertThat(spool.resolve("root")).doesNotExist();
    }
}
