package io.jsalt.cli.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.cli.testing.Console;
import io.jsalt.cli.testing.InProcessCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventCommandTest {
    @TempDir
    Path tmp;

    private InProcessCluster cluster;

    @BeforeEach
    void startMaster() throws Exception {
        cluster = new InProcessCluster(tmp).startMaster();
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void printsOnlyMatchingEventsAsJsonLinesAndStopsAfterTheCount() {
        CompletableFuture<Console.Run> run = CompletableFuture.supplyAsync(() -> Console.run(EventCommand::new,
                "-c", cluster.configDir().toString(), "--out", "json", "--count", "2", "--match-type", "glob", "salt/job/*/ret/*"));
        // the listener registers asynchronously: keep firing until it has seen two matching events
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> {
            cluster.master().events().fire("other/tag", Map.of("x", 1));
            cluster.master().events().fire("salt/job/20260101000000000001/ret/web1", Map.of("return", true));
            return run.isDone();
        });
        Console.Run result = run.join();
        assertThat(result.exitCode()).as(result.toString()).isZero();
        List<String> lines = result.stdout().lines().toList();
        assertThat(lines).hasSize(2).allSatisfy(line -> assertThat(line)
                .startsWith("{\"tag\":\"salt/job/20260101000000000001/ret/web1\",\"data\":{")
                .contains("\"return\":true", "\"_stamp\":"));
    }

    @Test
    void printsTagTabJsonByDefaultAndMatchesByPrefix() {
        CompletableFuture<Console.Run> run = CompletableFuture.supplyAsync(() -> Console.run(EventCommand::new,
                "-c", cluster.configDir().toString(), "--count", "1", "salt/key"));
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> {
            cluster.master().events().fire("salt/auth", Map.of("act", "pend"));
            cluster.master().events().fire("salt/key", Map.of("act", "accept", "id", "web1"));
            return run.isDone();
        });
        Console.Run result = run.join();
        assertThat(result.stdout()).startsWith("salt/key\t{").contains("\"act\":\"accept\"", "\"id\":\"web1\"");
        assertThat(result.stdout().lines()).hasSize(1);
    }

    @Test
    void aBadRegularExpressionIsAUsageError() {
        Console.Run result = Console.run(EventCommand::new, "-c", cluster.configDir().toString(), "--match-type", "regex", "salt/(");
        assertThat(result.exitCode()).isEqualTo(64);
        assertThat(result.stderr()).contains("bad regular expression 'salt/('");
    }

    @Test
    void withoutARunningMasterItSaysWhyAndExits69() {
        cluster.close();
        Console.Run result = Console.run(EventCommand::new, "-c", cluster.configDir().toString(), "--count", "1");
        assertThat(result.exitCode()).isEqualTo(69);
        assertThat(result.stderr()).contains("cannot read the master's events");
    }
}
