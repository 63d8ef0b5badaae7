package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code jsalt-master -d} checks before it detaches: a stale pid file, an unsafe pki_dir, taken ports. */
class DaemonStartupChecksEndToEndTest {
    private Cluster cluster;
    private Daemons daemons;

    @BeforeEach
    void setUp(@TempDir Path tmp) throws Exception {
        cluster = new Cluster(tmp);
        daemons = new Daemons(cluster);
        daemons.writeMasterConfig();
    }

    @AfterEach
    void tearDown() {
        daemons.close();
        cluster.close();
    }

    @Test
    void aStalePidFileOfADeadProcessIsReplaced() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        assertThat(gone.waitFor(10, TimeUnit.SECONDS)).isTrue();
        long deadPid = gone.pid();
        Files.createDirectories(daemons.masterPidFile().getParent());
        Files.writeString(daemons.masterPidFile(), deadPid + "\n");

        Cluster.Result start = daemons.startMaster("-d");

        assertThat(start.exitCode()).as(start.toString()).isZero();
        long pid = daemons.pid(daemons.masterPidFile());
        assertThat(pid).isNotEqualTo(deadPid);
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).contains(true);
        Daemons.signal(pid, "TERM");
        await().atMost(Duration.ofSeconds(20)).until(() -> !Files.exists(daemons.masterPidFile()));
    }

    @Test
    void aPkiDirOthersCanWriteIsRefusedWithExitCode78() throws Exception {
        Files.createDirectories(cluster.masterPki());
        Files.setPosixFilePermissions(cluster.masterPki(), PosixFilePermissions.fromString("rwxrwxrwx"));

        Cluster.Result start = daemons.startMaster("-d");

        assertThat(start.exitCode()).as(start.toString()).isEqualTo(78);
        assertThat(start.stderr()).contains("pki_dir " + cluster.masterPki() + " is writable by group or others");
        assertThat(daemons.masterPidFile()).doesNotExist();
    }

    @Test
    void aDaemonThatDiesWhileStartingMakesDashDFailWithItsExitCodeAndSayWhereToLook() throws Exception {
        // a log_file that is a folder: the parent's checks pass, the detached child cannot open its log
        Path folder = cluster.root.resolve("var/log/jsalt/is-a-folder");
        Files.createDirectories(folder);
        daemons.writeMasterConfig("log_file: /var/log/jsalt/is-a-folder");

        Cluster.Result start = daemons.startMaster("-d");

        assertThat(start.exitCode()).as(start.toString()).isEqualTo(78);
        assertThat(start.stderr()).contains("jsalt-master stopped while starting (exit code 78)", folder.toString());
        assertThat(daemons.masterPidFile()).doesNotExist();
    }

    @Test
    void aPortInUseIsRefusedWithSaltsMessageAndExitCode4() throws Exception {
        try (ServerSocket taken = new ServerSocket(cluster.retPort, 1, InetAddress.getByName("127.0.0.1"))) {
            Cluster.Result start = daemons.startMaster("-d");

            assertThat(start.exitCode()).as(start.toString()).isEqualTo(4);
            assertThat(start.stderr()).contains("The ports are not available to bind", "127.0.0.1:" + cluster.retPort, "ret_port");
            assertThat(daemons.masterPidFile()).doesNotExist();
        }
    }
}
