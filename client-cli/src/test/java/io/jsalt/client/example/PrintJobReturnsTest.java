package io.jsalt.client.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.cli.testing.InProcessCluster;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example program of docs/events.md: the page shows this very source, and it works. */
class PrintJobReturnsTest {
    private static final Path SOURCE = Path.of("src/test/java/io/jsalt/client/example/PrintJobReturns.java");
    private static final Path PAGE = Path.of("../docs/events.md");

    @TempDir
    Path tmp;

    @Test
    void theDocsShowTheExampleVerbatimFromItsImportsOn() throws Exception {
        String source = Files.readString(SOURCE);
        String shown = source.substring(source.indexOf("import "));

        assertThat(Files.readString(PAGE)).contains(shown);
    }

    @Test
    void printsEachReturnAndEndsWhenTheMasterStops() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
        try (InProcessCluster cluster = new InProcessCluster(tmp).startMaster()) {
            CompletableFuture<Void> watching = CompletableFuture.runAsync(() -> {
                try {
                    PrintJobReturns.watch(cluster.masterConfig().sockDir(), out);
                } catch (Exception e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            });
            // it subscribes asynchronously: fire until a line shows it has
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> {
                cluster.master().events().fire("salt/job/20261122091520123456/ret/web-01",
                        Map.of("id", "web-01", "jid", "20261122091520123456", "return", true));
                return buf.toString(StandardCharsets.UTF_8).contains("\n");
            });
            cluster.close();
            await().atMost(Duration.ofSeconds(20)).until(watching::isDone);
            assertThat(watching).isCompletedExceptionally();
        }
        assertThat(buf.toString(StandardCharsets.UTF_8)).startsWith("web-01 answered job 20261122091520123456: true\n");
    }
}
