package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * jsalt-run and jsalt-call as an operator uses them, every tool its own JVM: runners on the master, a
 * salt-call style run on a minion host that files its return on the master, a --local run, and the event
 * bus readable by the master's user only.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RunAndCallEndToEndTest {
    private static final String RUN = "io.jsalt.cli.run.RunCommand";
    private static final String CALL = "io.jsalt.cli.call.CallCommand";
    private static final String EVENT = "io.jsalt.cli.event.EventCommand";

    private Path root;
    private Cluster cluster;

    @BeforeAll
    void startCluster(@TempDir Path tmp) throws Exception {
        root = tmp;
        cluster = new Cluster(tmp);
        cluster.startMaster();
        cluster.startMinion("alpha");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(cluster.key("-l", "pre").stdout()).contains("alpha"));
        assertThat(cluster.key("-A", "-y").exitCode()).isZero();
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(cluster.jsalt("-t", "3", "alpha", "test.ping").exitCode()).isZero());
    }

    @AfterAll
    void stopCluster() {
        cluster.close();
    }

    private Cluster.Result run(String... args) throws Exception {
        return cluster.run(RUN, withDir(cluster.masterConfigDir(), args));
    }

    private Cluster.Result call(String... args) throws Exception {
        return cluster.run(CALL, withDir(root.resolve("conf/alpha"), args));
    }

    private static String[] withDir(Path dir, String... args) {
        List<String> all = new ArrayList<>(List.of("-c", dir.toString()));
        all.addAll(List.of(args));
        return all.toArray(String[]::new);
    }

    @Test
    @Order(1)
    void manageStatusListsTheMinionThatAnswers() throws Exception {
        Cluster.Result status = run("manage.status");

        assertThat(status.exitCode()).as(status.toString()).isZero();
        assertThat(status.stdout()).isEqualTo("down:\nup:\n    - alpha\n");
    }

    @Test
    @Order(2)
    void jsaltCallReturnsToTheMasterAndJobsLookupJidFindsIt() throws Exception {
        Cluster.Result ping = call("--show-jid", "test.ping");

        assertThat(ping.exitCode()).as(ping.toString()).isZero();
        Matcher m = Pattern.compile("^jid: (\\d{20})\nlocal:\n    True\n$").matcher(ping.stdout());
        assertThat(m.matches()).as(ping.toString()).isTrue();

        Cluster.Result lookup = run("jobs.lookup_jid", m.group(1));
        assertThat(lookup.exitCode()).as(lookup.toString()).isZero();
        assertThat(lookup.stdout()).isEqualTo("alpha:\n    True\n");
    }

    @Test
    @Order(3)
    void jsaltCallLocalReadsTheMinionsGrainsWithoutTheMaster() throws Exception {
        Cluster.Result grains = call("--local", "grains.item", "id");

        assertThat(grains.exitCode()).as(grains.toString()).isZero();
        assertThat(grains.stdout()).isEqualTo("local:\n    ----------\n    id:\n        alpha\n");
    }

    @Test
    @Order(4)
    void onlyTheMastersUserCanReadTheEventBus() throws Exception {
        Path classpath = readableClasspath();
        opened(root);
        Cluster.Result stranger = runAsNobody(classpath, EVENT, "-c", cluster.masterConfigDir().toString(), "--count", "1");

        assertThat(stranger.exitCode()).as(stranger.toString()).isEqualTo(69);
        assertThat(stranger.stderr()).contains("cannot read the master's events", "Permission denied");
        assertThat(stranger.stdout()).isEmpty();

        CompletableFuture<Cluster.Result> owner = CompletableFuture.supplyAsync(() -> {
            try {
                return cluster.run(EVENT, "-c", cluster.masterConfigDir().toString(), "--count", "1", "salt/job/");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        // the reader registers on its own time: keep making job events until it has printed one
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
            cluster.jsalt("--async", "alpha", "test.ping");
            return owner.isDone();
        });
        Cluster.Result read = owner.join();
        assertThat(read.exitCode()).as(read.toString()).isZero();
        assertThat(read.stdout()).startsWith("salt/job/");
    }

    /** The tools' class path copied where user nobody can read it (the build's own may sit under /root). */
    private Path readableClasspath() throws IOException {
        Path dir = root.resolve("readable-classpath");
        Files.createDirectories(dir);
        List<String> entries = new ArrayList<>();
        int n = 0;
        for (String entry : Cluster.CLASSPATH.split(File.pathSeparator)) {
            Path from = Path.of(entry);
            if (!Files.exists(from)) {
                continue;
            }
            Path to = dir.resolve(n++ + "-" + from.getFileName());
            if (Files.isDirectory(from)) {
                try (Stream<Path> tree = Files.walk(from)) {
                    for (Path p : (Iterable<Path>) tree::iterator) {
                        Path target = to.resolve(from.relativize(p).toString());
                        if (Files.isDirectory(p)) {
                            Files.createDirectories(target);
                        } else {
                            Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                        }
                    }
                }
            } else {
                Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
            }
            entries.add(to.toString());
        }
        opened(dir);
        try (Stream<Path> tree = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) tree::iterator) {
                opened(p);
            }
        }
        Path file = dir.resolve("classpath.txt");
        Files.writeString(file, String.join(File.pathSeparator, entries), StandardCharsets.UTF_8);
        return file;
    }

    /** World-readable (and traversable, for folders): the config and the class path, never the master's folders. */
    private static void opened(Path p) throws IOException {
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
    }

    private Cluster.Result runAsNobody(Path classpathFile, String mainClass, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("runuser", "-u", "nobody", "--", Cluster.JAVA, "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-cp", Files.readString(classpathFile), mainClass));
        cmd.addAll(List.of(args));
        Path out = root.resolve("nobody.out");
        Path err = root.resolve("nobody.err");
        Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("did not finish: " + cmd);
        }
        return new Cluster.Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
