package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.cli.daemon.PidFile;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A master and a minion started with {@code -d}, the way a systemd unit or an operator starts them, then
 * driven by signals only: the pid files, a refused second start, a job, HUP, USR2 and TERM. The steps
 * share the two daemons and run in order.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DetachedDaemonsEndToEndTest {
    private static final int GRACEFUL_SHUTDOWN_TIMEOUT = 10;

    private Cluster cluster;
    private Daemons daemons;
    private Cluster.Result masterStart;
    private Cluster.Result minionStart;
    private boolean masterUpWhenStartReturned;
    private long masterPid;
    private long minionPid;

    @BeforeAll
    void startDetached(@TempDir Path tmp) throws Exception {
        cluster = new Cluster(tmp);
        daemons = new Daemons(cluster);
        daemons.writeMasterConfig("graceful_shutdown_timeout: " + GRACEFUL_SHUTDOWN_TIMEOUT);
        daemons.writeMinionConfig("m1", "graceful_shutdown_timeout: " + GRACEFUL_SHUTDOWN_TIMEOUT);
        masterStart = daemons.startMaster("-d");
        masterUpWhenStartReturned = Cluster.read(cluster.masterLog()).contains("master up") && accepts(cluster.retPort);
        minionStart = daemons.startMinion("m1", "-d");
        masterPid = Files.exists(daemons.masterPidFile()) ? daemons.pid(daemons.masterPidFile()) : -1;
        minionPid = Files.exists(daemons.minionPidFile("m1")) ? daemons.pid(daemons.minionPidFile("m1")) : -1;
    }

    @AfterAll
    void stop() {
        daemons.close();
        cluster.close();
    }

    @Test
    @Order(1)
    void dashDReturnsZeroOnceTheDaemonIsUpAndLeavesItDetachedWithALockedPidFile() throws Exception {
        assertThat(masterStart.exitCode()).as(masterStart.toString()).isZero();
        assertThat(minionStart.exitCode()).as(minionStart.toString()).isZero();
        assertThat(masterUpWhenStartReturned).as("ports bound when -d returned").isTrue();

        for (long pid : new long[] {masterPid, minionPid}) {
            ProcessHandle daemon = ProcessHandle.of(pid).orElseThrow();
            assertThat(daemon.isAlive()).isTrue();
            assertThat(daemon.parent().map(ProcessHandle::pid)).isNotEqualTo(Optional.of(ProcessHandle.current().pid()));
            // /proc/PID/stat: "pid (comm) state ppid pgrp session ..."; a new session is led by the daemon
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            assertThat(fields[3]).as("session of " + pid).isEqualTo(Long.toString(pid));
            assertThat(Files.readSymbolicLink(Path.of("/proc/" + pid + "/cwd"))).isEqualTo(Path.of("/"));
            assertThat(Files.readString(Path.of("/proc/" + pid + "/status"))).contains("Umask:\t0077");
            assertThat(Files.readSymbolicLink(Path.of("/proc/" + pid + "/fd/1"))).isEqualTo(Path.of("/dev/null"));
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cluster.masterLog()))).isEqualTo("rw-------");
        // probed from this JVM, another process than the daemons: the kernel's lock is what answers
        assertThat(PidFile.lockedBy(daemons.masterPidFile())).contains(masterPid);
        assertThat(PidFile.lockedBy(daemons.minionPidFile("m1"))).contains(minionPid);
    }

    @Test
    @Order(2)
    void aSecondStartIsRefusedWithExitCode75() throws Exception {
        Cluster.Result master = daemons.startMaster("-d");
        assertThat(master.exitCode()).as(master.toString()).isEqualTo(75);
        assertThat(master.stderr()).contains("jsalt-master is already running with pid " + masterPid
                + " (pid file " + daemons.masterPidFile() + ")");

        Cluster.Result minion = daemons.startMinion("m1");
        assertThat(minion.exitCode()).as(minion.toString()).isEqualTo(75);
        assertThat(minion.stderr()).contains("jsalt-minion is already running with pid " + minionPid);

        assertThat(ProcessHandle.of(masterPid).map(ProcessHandle::isAlive)).contains(true);
        assertThat(Files.readString(daemons.masterPidFile()).trim()).isEqualTo(Long.toString(masterPid));
    }

    @Test
    @Order(3)
    void theDetachedDaemonsRunJobs() throws Exception {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(cluster.key("-l", "pre").stdout()).contains("m1"));
        assertThat(cluster.key("-a", "m1", "-y").exitCode()).isZero();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            Cluster.Result ping = cluster.jsalt("-t", "5", "m1", "test.ping");
            assertThat(ping.exitCode()).as(ping.toString()).isZero();
            assertThat(ping.stdout()).contains("m1:\n    True\n");
        });
    }

    @Test
    @Order(4)
    void hupAppliesTheLogLevelWrittenInTheConfig() throws Exception {
        assertThat(Cluster.read(cluster.masterLog())).doesNotContain("[DEBUG]");

        daemons.writeMasterConfig("graceful_shutdown_timeout: " + GRACEFUL_SHUTDOWN_TIMEOUT, "log_level: debug");
        Daemons.signal(masterPid, "HUP");

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(Cluster.read(cluster.masterLog())).contains("[DEBUG]", "configuration reloaded"));
    }

    @Test
    @Order(5)
    void hupWithABrokenConfigKeepsTheRunningOne() throws Exception {
        Files.writeString(cluster.masterConfigDir().resolve("master"), "ret_port: [not a port\n");
        Daemons.signal(masterPid, "HUP");

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(Cluster.read(cluster.masterLog())).contains("configuration not reloaded, keeping the running one"));
        daemons.writeMasterConfig("graceful_shutdown_timeout: " + GRACEFUL_SHUTDOWN_TIMEOUT);
        Cluster.Result ping = cluster.jsalt("-t", "5", "m1", "test.ping");
        assertThat(ping.exitCode()).as(ping.toString()).isZero();
    }

    @Test
    @Order(6)
    void usr2AfterTheLogFileWasMovedAwayWritesToANewFile() throws Exception {
        Path log = cluster.minionLog("m1");
        Path rotated = log.resolveSibling("m1.1");
        Files.move(log, rotated);

        Daemons.signal(minionPid, "USR2");

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(Cluster.read(log)).contains("log file " + log + " reopened"));
        assertThat(Cluster.read(rotated)).doesNotContain("reopened");
        // and what the minion logs next goes there too
        Cluster.Result ping = cluster.jsalt("-t", "5", "m1", "test.ping");
        assertThat(ping.exitCode()).as(ping.toString()).isZero();
        Daemons.signal(minionPid, "USR2");
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(Cluster.read(log).split("reopened", -1)).hasSize(3));
    }

    @Test
    @Order(7)
    void termStopsBothWithinTheDeadlineAndRemovesThePidFiles() throws Exception {
        ProcessHandle master = ProcessHandle.of(masterPid).orElseThrow();
        ProcessHandle minion = ProcessHandle.of(minionPid).orElseThrow();

        Daemons.signal(minionPid, "TERM");
        Daemons.signal(masterPid, "TERM");

        // the deadline plus the JVM's own exit: a generous bound on what the issue asks
        Duration bound = Duration.ofSeconds(GRACEFUL_SHUTDOWN_TIMEOUT + 5);
        await().atMost(bound).until(() -> !master.isAlive() && !minion.isAlive());
        assertThat(daemons.masterPidFile()).doesNotExist();
        assertThat(daemons.minionPidFile("m1")).doesNotExist();
        assertThat(Cluster.read(cluster.masterLog())).contains("jsalt-master stopping (SIGTERM)", "jsalt-master stopped");
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
