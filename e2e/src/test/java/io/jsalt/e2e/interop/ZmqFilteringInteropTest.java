package io.jsalt.e2e.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code zmq_filtering: True} on both sides, in both directions (issue 15, case 3): the master publishes
 * each job on the topic {@code sha1(id)} of every targeted minion, or on {@code broadcast}, and each minion
 * subscribes only to those.
 */
@Tag("interop")
class ZmqFilteringInteropTest {

    @Test
    void aFilteringSaltMinionOnAFilteringJsaltMasterGetsItsJobs(@TempDir Path root) throws Exception {
        try (Processes processes = new Processes()) {
            JsaltSide jsalt = new JsaltSide(processes, root.resolve("j"));
            SaltSide salt = new SaltSide(processes, root.resolve("s"));
            jsalt.startMaster("zmq_filtering: True");
            salt.startMinion("sm1", jsalt.publishPort(), jsalt.retPort(), "zmq_filtering: True");
            jsalt.startMinion("jm1", jsalt.publishPort(), jsalt.retPort(), "zmq_filtering: True");
            await().atMost(Duration.ofSeconds(60)).until(() -> jsalt.pending("sm1") && jsalt.pending("jm1"));
            assertThat(jsalt.key("-A", "-y").exitCode()).isZero();

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() ->
                    answers(jsalt.jsalt("-t", "3", "sm1", "test.ping", "--out", "json", "--static"), Map.of("sm1", true)));
            assertThat(answers(jsalt.jsalt("-L", "jm1,sm1", "test.ping", "--out", "json", "--static"), Map.of("sm1", true, "jm1", true)))
                    .isTrue();
            assertThat(answers(jsalt.jsalt("*", "test.echo", "all", "--out", "json", "--static"), Map.of("sm1", "all", "jm1", "all")))
                    .isTrue();
        }
    }

    @Test
    void aFilteringJsaltMinionOnAFilteringSaltMasterGetsItsJobs(@TempDir Path root) throws Exception {
        try (Processes processes = new Processes()) {
            JsaltSide jsalt = new JsaltSide(processes, root.resolve("j"));
            SaltSide salt = new SaltSide(processes, root.resolve("s"));
            salt.startMaster("zmq_filtering: True");
            jsalt.startMinion("jm1", salt.publishPort(), salt.retPort(), "zmq_filtering: True");
            jsalt.startMinion("jm2", salt.publishPort(), salt.retPort(), "zmq_filtering: True");
            await().atMost(Duration.ofSeconds(60)).until(() -> salt.pending("jm1") && salt.pending("jm2"));
            assertThat(salt.saltKey("-A", "-y").exitCode()).isZero();

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() ->
                    answers(salt.salt("-t", "3", "jm1", "test.ping", "--out", "json", "--static"), Map.of("jm1", true)));
            assertThat(answers(salt.salt("-t", "10", "-L", "jm1,jm2", "test.ping", "--out", "json", "--static"),
                    Map.of("jm1", true, "jm2", true))).isTrue();
            assertThat(answers(salt.salt("-t", "10", "*", "test.echo", "all", "--out", "json", "--static"),
                    Map.of("jm1", "all", "jm2", "all"))).isTrue();
        }
    }

    private static boolean answers(Processes.Result r, Map<String, Object> expected) {
        return r.exitCode() == 0 && r.stdout().strip().startsWith("{") && Json.object(r.stdout()).equals(expected);
    }
}
