package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A minion started by bin/jsalt-minion, as an operator starts one: its class path leaves the master's, the API's
 * and their libraries' jars off (bin/jsalt-minion), so its features are run here through that launcher (execution
 * modules, states with Jinja templates from the master's file server, pillar, supervision); a jar missing from
 * its class path shows as a class not found in its console or log, or a failed job.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MinionLauncherClassPathEndToEndTest {
    /** e2e/ is the working directory of its tests; bin/ is beside it. */
    private static final Path LAUNCHER = Path.of("..", "bin", "jsalt-minion").toAbsolutePath().normalize();

    private Cluster cluster;
    private Process minion;
    private Path console;
    private Path target;

    @BeforeAll
    void startCluster(@TempDir Path tmp) throws Exception {
        Path fileRoot = Files.createDirectories(tmp.resolve("srv/jsalt"));
        Path pillarRoot = Files.createDirectories(tmp.resolve("srv/pillar"));
        target = tmp.resolve("target");
        Files.writeString(fileRoot.resolve("motd.j2"), """
                {% for name in pillar['users'] | sort %}{{ name | upper }}{% if not loop.last %},{% endif %}{% endfor %}
                host={{ grains['id'] }} words={{ ["a", "b", "c"] | join("-") }}
                """);
        Files.writeString(fileRoot.resolve("site.sls"), """
                {% set dir = 'TARGET' %}
                {{ dir }}:
                  file.directory:
                    - makedirs: True
                {{ dir }}/motd:
                  file.managed:
                    - source: salt://motd.j2
                    - template: jinja
                    - require:
                      - file: {{ dir }}
                {% for n in range(2) %}
                echo-{{ n }}:
                  cmd.run:
                    - name: echo {{ n * 21 }}
                {% endfor %}
                """.replace("TARGET", target.toString()));
        Files.writeString(pillarRoot.resolve("top.sls"), "base:\n  '*':\n    - users\n");
        Files.writeString(pillarRoot.resolve("users.sls"), "users:\n  - bob\n  - alice\n");
        cluster = new Cluster(tmp); // root_dir: the file and pillar roots are under it
        cluster.startMaster("auto_accept: True", "file_roots:", "  base:", "    - " + fileRoot,
                "pillar_roots:", "  base:", "    - " + pillarRoot);
        Path conf = new Daemons(cluster).writeMinionConfig("m1", "supervisor:", "  app:", "    command: sleep 1000",
                "    startsecs: 0");
        console = cluster.root.resolve("console/m1-launcher.out");
        Files.createDirectories(console.getParent());
        ProcessBuilder pb = new ProcessBuilder("bash", LAUNCHER.toString(), "-c", conf.toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(console.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().remove("JSALT_DAEMON_JAVA_OPTS");
        pb.environment().put("JAVA_HOME", Path.of(Cluster.JAVA).getParent().getParent().toString());
        minion = pb.start();
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            assertThat(minion.isAlive()).as(Cluster.read(console)).isTrue();
            Cluster.Result r = cluster.jsalt("-t", "5", "m1", "test.ping");
            assertThat(r.exitCode()).as(r.toString()).isZero();
        });
    }

    @AfterAll
    void stop() throws InterruptedException {
        if (minion != null) {
            minion.descendants().forEach(ProcessHandle::destroyForcibly);
            minion.destroy();
            if (!minion.waitFor(15, TimeUnit.SECONDS)) {
                minion.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private Cluster.Result job(String... args) throws IOException, InterruptedException {
        String[] full = new String[args.length + 3];
        full[0] = "-t";
        full[1] = "90";
        full[2] = "m1";
        System.arraycopy(args, 0, full, 3, args.length);
        Cluster.Result r = cluster.jsalt(full);
        assertThat(r.exitCode()).as(Arrays.toString(args) + "\n" + r).isZero();
        return r;
    }

    @Test
    void theMinionRunsWithoutTheMastersJarsAndEachFeatureWorks() throws Exception {
        List<String> classPath = classPathOf(minion.pid());
        assertThat(classPath).as("the launcher's class path").anyMatch(j -> j.contains("jsalt-minion-"))
                .anyMatch(j -> j.contains("jinjava-")).anyMatch(j -> j.contains("bcprov-"))
                .noneMatch(j -> j.contains("jsalt-master-") || j.contains("jsalt-api-") || j.contains("jetty-")
                        || j.contains("postgresql-") || j.contains("sqlite-jdbc-"));

        assertThat(job("test.echo", "hi").stdout()).contains("hi");
        assertThat(job("cmd.run", "echo from-a-shell").stdout()).contains("from-a-shell");
        assertThat(job("grains.item", "os").stdout()).contains("os");
        assertThat(job("sys.list_functions").stdout()).contains("state.apply", "supervisor.status");
        assertThat(job("test.versions_report").stdout()).contains("Java");
        Cluster.Result pillar = cluster.jsalt("-t", "90", "--out", "json", "m1", "pillar.item", "users");
        assertThat(pillar.stdout()).as(pillar.toString()).contains("\"alice\"", "\"bob\"");

        Cluster.Result state = job("state.apply", "site");
        assertThat(state.stdout()).as(state.toString()).contains("Succeeded: 4").doesNotContain("Failed:    1");
        assertThat(Files.readString(target.resolve("motd"), StandardCharsets.UTF_8))
                .isEqualTo("ALICE,BOB\nhost=m1 words=a-b-c\n");
        assertThat(job("state.apply", "site", "test=True").stdout()).contains("Succeeded: 4");

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(job("supervisor.status").stdout()).contains("app", "RUNNING"));

        String logs = Cluster.read(console) + Cluster.read(cluster.minionLog("m1"));
        assertThat(logs).doesNotContain("NoClassDefFoundError", "ClassNotFoundException", "Exception in thread");
        assertThat(minion.isAlive()).isTrue();
    }

    /** The {@code -cp} argument of a running java, from its command line. */
    private static List<String> classPathOf(long pid) throws IOException {
        List<String> args = Arrays.asList(new String(Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")),
                StandardCharsets.UTF_8).split("\0"));
        int at = args.indexOf("-cp");
        assertThat(at).as("a -cp in " + args).isNotNegative();
        return Arrays.asList(args.get(at + 1).split(File.pathSeparator));
    }
}
