package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.minion.testing.ModuleJarBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Managing running jobs and custom modules from the command line, with a real master and minion: a long
 * command is listed by saltutil.running and ended by saltutil.kill_job, and a module jar put in the master's
 * file_roots reaches the minion with saltutil.sync_modules and answers at once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JobControlEndToEndTest {
    private static final Pattern JID = Pattern.compile("Executed command with job ID: (\\d{20})");

    private Cluster cluster;

    @BeforeAll
    void startCluster(@TempDir Path tmp) throws Exception {
        cluster = new Cluster(tmp);
        cluster.startMaster("auto_accept: True");
        cluster.startMinion("m1");
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(cluster.jsalt("-t", "5", "m1", "test.ping").exitCode()).isZero());
    }

    @AfterAll
    void stopCluster() {
        cluster.close();
    }

    private Optional<ProcessHandle> sleepChild() {
        return cluster.minion("m1").descendants().filter(p -> p.info().command().orElse("").endsWith("/sleep")
                && List.of(p.info().arguments().orElse(new String[0])).contains("60")).findFirst();
    }

    @Test
    void killJobEndsALongCommandThatSaltutilRunningShows() throws Exception {
        Cluster.Result published = cluster.jsalt("--async", "m1", "cmd.run", "sleep 60");
        Matcher m = JID.matcher(published.stdout());
        assertThat(m.find()).as(published.toString()).isTrue();
        String jid = m.group(1);
        ProcessHandle sleep = null;
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> sleepChild().isPresent());
            sleep = sleepChild().orElseThrow();
            ProcessHandle child = sleep;

            Cluster.Result running = cluster.jsalt("--out", "json", "m1", "saltutil.running");
            assertThat(running.exitCode()).as(running.toString()).isZero();
            // cmd.run runs through /bin/sh by default (as Salt): the job's child is the shell, and sleep is its child
            long shell = sleep.parent().map(ProcessHandle::pid).orElseThrow();
            assertThat(running.stdout()).contains("\"jid\": \"" + jid + "\"", "\"fun\": \"cmd.run\"",
                    Long.toString(shell));

            Cluster.Result killed = cluster.jsalt("m1", "saltutil.kill_job", jid);
            assertThat(killed.exitCode()).as(killed.toString()).isZero();
            assertThat(killed.stdout()).contains("Signal 9 sent to job " + jid);

            // SIGKILL is at once, but reaping and the kernel's bookkeeping wait on two cores shared with builds
            await().atMost(Duration.ofSeconds(10)).until(() -> !child.isAlive());
            Cluster.Result find = cluster.jsalt("--out", "json", "m1", "saltutil.find_job", jid);
            assertThat(find.stdout()).as(find.toString()).contains("\"m1\": {}");
        } finally {
            // a failure above must not leave a 60 s sleep behind
            if (sleep != null) {
                sleep.destroyForcibly();
            }
            sleepChild().ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void aModuleJarInTheMastersFileRootsIsSyncedAndCallable(@TempDir Path work) throws Exception {
        Path fileRoot = cluster.root.resolve("srv/jsalt");
        ModuleJarBuilder.build(fileRoot.resolve("_modules/hello.jar"), work, "hello", "world", "hello from a synced jar");
        assertThat(Files.exists(fileRoot.resolve("_modules/hello.jar"))).isTrue();

        Cluster.Result synced = cluster.jsalt("--out", "json", "*", "saltutil.sync_modules");
        assertThat(synced.exitCode()).as(synced.toString()).isZero();
        assertThat(synced.stdout()).contains("modules.hello");

        Cluster.Result hello = cluster.jsalt("*", "hello.world");
        assertThat(hello.exitCode()).as(hello.toString()).isZero();
        assertThat(hello.stdout()).contains("m1:\n    hello from a synced jar");
    }
}
