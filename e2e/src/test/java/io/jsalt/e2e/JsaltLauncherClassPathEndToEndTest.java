package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/jsalt as an operator runs it, against a real master and minion: its class path holds only the jars it
 * names (bin/jsalt), so each of its paths is run here through the launcher, with and without the CDS archive
 * its first job writes; a jar missing from that list shows as a class not found (or a failed run) here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JsaltLauncherClassPathEndToEndTest {
    /** e2e/ is the working directory of its tests; bin/ is beside it. */
    private static final Path JSALT = Path.of("..", "bin", "jsalt").toAbsolutePath().normalize();

    private Cluster cluster;
    private Path cds;

    @BeforeAll
    void startCluster(@TempDir Path tmp) throws Exception {
        cds = Files.createDirectory(tmp.resolve("cds"));
        cluster = new Cluster(tmp.resolve("cluster"));
        cluster.startMaster();
        cluster.startMinion("m1");
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(cluster.key("-l", "pre").stdout().lines()).contains("m1"));
        Cluster.Result accepted = cluster.key("-A", "-y");
        assertThat(accepted.exitCode()).as(accepted.toString()).isZero();
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Cluster.Result r = cluster.jsalt("-t", "5", "*", "test.ping");
            assertThat(r.exitCode()).as(r.toString()).isZero();
        });
    }

    @AfterAll
    void stopCluster() {
        cluster.close();
    }

    /** bin/jsalt with the cluster's master config, its archive in the test's own folder. */
    private Cluster.Result launcher(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", JSALT.toString()));
        if (args.length == 0 || !args[0].startsWith("--v") && !args[0].equals("--help")) {
            cmd.addAll(List.of("-c", cluster.masterConfigDir().toString()));
        }
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().put("JSALT_CDS_DIR", cds.toString());
        pb.environment().remove("JSALT_JAVA_OPTS");
        pb.environment().put("JAVA_HOME", Path.of(Cluster.JAVA).getParent().getParent().toString());
        Process p = pb.start();
        byte[][] err = new byte[1][];
        Thread reader = new Thread(() -> {
            try {
                err[0] = p.getErrorStream().readAllBytes();
            } catch (IOException e) {
                err[0] = new byte[0];
            }
        });
        reader.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("bin/jsalt did not finish: " + cmd);
        }
        reader.join();
        Cluster.Result r = new Cluster.Result(p.exitValue(), new String(out, StandardCharsets.UTF_8),
                new String(err[0], StandardCharsets.UTF_8));
        assertThat(r.stderr()).as(r.toString()).doesNotContain("NoClassDefFoundError", "ClassNotFoundException",
                "Exception in thread");
        return r;
    }

    @Test
    void everyPathOfTheToolRunsOnItsShortClassPathWithAndWithoutItsArchive() throws Exception {
        Cluster.Result version = launcher("--version");
        assertThat(version.exitCode()).as(version.toString()).isZero();
        assertThat(version.stdout()).startsWith("jsalt ");

        Cluster.Result help = launcher("--help");
        assertThat(help.exitCode()).as(help.toString()).isZero();
        assertThat(help.stdout()).contains("Usage: jsalt", "--out");

        // twice: the first run writes the archive, the second runs from it
        for (int round = 0; round < 2; round++) {
            Cluster.Result ping = launcher("*", "test.ping");
            assertThat(ping.exitCode()).as(ping.toString()).isZero();
            assertThat(ping.stdout()).isEqualTo("m1:\n    True\n");
            try (var archives = Files.list(cds)) {
                assertThat(archives.map(f -> f.getFileName().toString()))
                        .as("the archive the first job wrote").anyMatch(n -> n.startsWith("JsaltCommand-") && n.endsWith(".jsa"));
            }

            for (String out : List.of("yaml", "json", "txt", "raw", "nested", "quiet")) {
                Cluster.Result grains = launcher("--out", out, "*", "grains.item", "id");
                assertThat(grains.exitCode()).as(grains.toString()).isZero();
                if (!out.equals("quiet")) {
                    assertThat(grains.stdout()).as(out).contains("m1");
                }
            }
            Cluster.Result verbose = launcher("-v", "--show-jid", "--summary", "-b", "1", "-L", "m1", "test.echo", "hi");
            assertThat(verbose.exitCode()).as(verbose.toString()).isZero();
            assertThat(verbose.stdout()).contains("hi");

            Cluster.Result async = launcher("--async", "*", "test.ping");
            assertThat(async.exitCode()).as(async.toString()).isZero();
            assertThat(async.stdout()).startsWith("Executed command with job ID: ");

            Cluster.Result state = launcher("*", "state.apply", "test=True");
            assertThat(state.stdout()).as(state.toString()).contains("m1");

            Cluster.Result unknown = launcher("*", "nosuch.fn");
            assertThat(unknown.exitCode()).as(unknown.toString()).isEqualTo(1);
            assertThat(unknown.stdout()).contains("'nosuch.fn' is not available");

            Cluster.Result noMatch = launcher("nomatch", "test.ping");
            assertThat(noMatch.exitCode()).as(noMatch.toString()).isEqualTo(2);
            assertThat(noMatch.stderr() + noMatch.stdout()).contains("No minions matched the target");

            Cluster.Result usage = launcher("--no-such-option", "*", "test.ping");
            assertThat(usage.exitCode()).as(usage.toString()).isEqualTo(64);
        }
    }

    @Test
    void theVersionsReportListsTheInstallationsLibrariesNotOnlyTheToolsOwn() throws Exception {
        Cluster.Result report = launcher("--versions-report");

        assertThat(report.exitCode()).as(report.toString()).isZero();
        assertThat(report.stdout()).containsPattern("bcprov-jdk18on: \\d").containsPattern("sqlite-jdbc: \\d")
                .containsPattern("picocli: \\d").doesNotContain("Not Installed");
    }
}
