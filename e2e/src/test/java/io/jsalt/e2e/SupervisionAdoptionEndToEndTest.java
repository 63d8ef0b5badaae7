package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process started outside jsalt, found by its command line ({@code pattern=}), is adopted by a real minion
 * instead of started a second time; the minion's exit watch (its {@code jsalt-exitwatch} helper) tells it when
 * that process dies, and the program is started again with its command, as the minion's own child.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SupervisionAdoptionEndToEndTest {
    private Cluster cluster;
    private Process outside;
    private long restarted;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        outside = new ProcessBuilder("sleep", "1013").start();
        cluster = new Cluster(tmp);
        cluster.startMaster("auto_accept: True");
        cluster.startMinion("m1", "supervisor_on_stop: stop", "supervisor:", "  legacy:", "    command: sleep 1013",
                "    pattern: '^sleep 1013$'", "    startsecs: 0");
    }

    @AfterAll
    void stop() {
        outside.destroyForcibly();
        cluster.close();
        ProcessHandle.of(restarted).ifPresent(ProcessHandle::destroyForcibly);
    }

    private long pid() throws IOException, InterruptedException {
        Cluster.Result r = cluster.jsalt("-t", "10", "--out", "json", "m1", "supervisor.pid", "legacy");
        Matcher m = Pattern.compile("\"m1\":\\s*(\\d+)").matcher(r.stdout());
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private static String commandLine(ProcessHandle p) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "cmdline")), StandardCharsets.UTF_8)
                    .replace('\0', ' ').strip();
        } catch (IOException e) {
            return "";
        }
    }

    @Test
    void aProcessFoundByItsCommandLineIsAdoptedAndStartedAgainByTheMinionWhenItDies() throws Exception {
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).until(() -> pid() == outside.pid());
        ProcessHandle minion = cluster.minion("m1").toHandle();
        assertThat(minion.children().map(SupervisionAdoptionEndToEndTest::commandLine))
                .as("one helper watches the adopted processes' exits").contains("jsalt-exitwatch");

        outside.destroyForcibly().waitFor();

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
            long now = pid();
            return now > 0 && now != outside.pid();
        });
        restarted = pid();
        assertThat(ProcessHandle.of(restarted).flatMap(ProcessHandle::parent).map(ProcessHandle::pid))
                .as("started with its command, by the minion").contains(minion.pid());
        assertThat(commandLine(ProcessHandle.of(restarted).orElseThrow())).isEqualTo("sleep 1013");
    }
}
