package io.jsalt.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.cli.jsalt.JsaltCommand;
import io.jsalt.cli.key.KeyCommand;
import io.jsalt.cli.testing.Console;
import io.jsalt.cli.testing.InProcessCluster;
import io.jsalt.transport.codec.Json;
import io.jsalt.master.keys.KeyState;
import io.jsalt.minion.Minion;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.event.EventFrame;
import io.jsalt.transport.message.PublishRequest;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole fabric in one JVM: a master and many minions on one shared transport, driven by the real CLI
 * commands in-process. This is the embeddability requirement: many minions per JVM, no static state, and
 * nothing left running once everything is closed.
 */
class MasterAndMinionsInOneJvmTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path tmp;

    private InProcessCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Set<String> jsaltThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith("jsalt-")).collect(Collectors.toSet());
    }

    private Console.Run jsaltKey(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "-c";
        all[1] = cluster.configDir().toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return Console.run(out -> new KeyCommand(out, new ByteArrayInputStream(new byte[0])), all);
    }

    private Console.Run jsalt(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "-c";
        all[1] = cluster.configDir().toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return Console.run(JsaltCommand::new, all);
    }

    /** Starts minions, accepts their keys with jsalt-key through the running master, waits for their start events. */
    private List<Minion> startAndAccept(String prefix, int count) throws Exception {
        List<Minion> minions = cluster.startMinions(prefix, count);
        await().atMost(WAIT).until(() -> cluster.master().keys().list(KeyState.PENDING).size() == count);

        Console.Run accepted = jsaltKey("-A", "-y");

        assertThat(accepted.exitCode()).as(accepted.toString()).isZero();
        for (Minion m : minions) {
            assertThat(accepted.stdout()).contains("Key for minion " + m.id() + " accepted.");
        }
        await().atMost(WAIT).until(() -> minions.stream().allMatch(m -> m.state() == Minion.State.SIGNED_IN));
        for (Minion m : minions) {
            await().atMost(WAIT).until(() -> cluster.sawEvent("salt/minion/" + m.id() + "/start"));
        }
        return minions;
    }

    @Test
    void twentyMinionsSharingOneTransportAllAnswerAPingAndLeaveNoThreadBehind() throws Exception {
        cluster = new InProcessCluster(tmp).startMaster();
        List<Minion> minions = startAndAccept("minion", 20);
        Set<String> ids = minions.stream().map(Minion::id).collect(Collectors.toSet());

        // publish through the client connection, and read the returns off the event bus
        String jid;
        try (MasterConnection connection = MasterConnection.open(cluster.masterConfig())) {
            PublishRequest ping = new PublishRequest("*", "test.ping", List.of(), "glob", System.getProperty("user.name"), "", Map.of());
            Map<String, Object> reply = connection.call(ping.toLoad(), Duration.ofSeconds(10));
            jid = Wire.string(reply, "jid");
            assertThat(Wire.optList(reply, "minions")).containsExactlyInAnyOrderElementsOf(ids);
        }
        String prefix = "salt/job/" + jid + "/ret/";
        await().atMost(WAIT).until(() -> cluster.events().stream().filter(e -> e.tag().startsWith(prefix)).count() == 20);
        Map<String, Object> returns = new LinkedHashMap<>();
        for (EventFrame e : cluster.events()) {
            if (e.tag().startsWith(prefix)) {
                returns.put(e.tag().substring(prefix.length()), e.data().get("return"));
            }
        }
        assertThat(returns.keySet()).isEqualTo(ids);
        assertThat(returns.values()).containsOnly(true);

        // the same through the jsalt command
        Console.Run run = jsalt("--out", "json", "--static", "-t", "20", "*", "test.ping");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        @SuppressWarnings("unchecked")
        Map<String, Object> printed = (Map<String, Object>) Json.parse(run.stdout());
        assertThat(printed.keySet()).isEqualTo(ids);
        assertThat(printed.values()).containsOnly(true);

        cluster.close();

        await().atMost(Duration.ofSeconds(15)).untilAsserted(() ->
                assertThat(jsaltThreads()).as("jsalt threads still alive after closing everything").isEmpty());
    }

    @Test
    void argumentsTypedOnTheCommandLineReachTheMinionAsSaltSendsThem() throws Exception {
        cluster = new InProcessCluster(tmp).startMaster();
        startAndAccept("node", 2);

        Console.Run run = jsalt("--out", "json", "node-02", "test.arg", "1", "two=2");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(Json.parse(run.stdout())).isEqualTo(Map.of("node-02", Map.of("args", List.of(1L), "kwargs", Map.of("two", 2L))));
    }

    @Test
    void theDefaultOutputIsSaltsNestedFormat() throws Exception {
        cluster = new InProcessCluster(tmp).startMaster();
        startAndAccept("node", 2);

        Console.Run run = jsalt("node-*", "test.echo", "hello world");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).contains("node-01:\n    hello world\n").contains("node-02:\n    hello world\n");
    }

    @Test
    void aNoneReturnIsPrintedAsNone() throws Exception {
        cluster = new InProcessCluster(tmp).startMaster();
        startAndAccept("node", 1);

        Console.Run run = jsalt("node-01", "test.echo", "null");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).isEqualTo("node-01:\n    None\n");
    }

    @Test
    void aTargetedMinionThatDoesNotAnswerIsReportedAndTheExitCodeSaysSo() throws Exception {
        cluster = new InProcessCluster(tmp).startMaster();
        List<Minion> minions = startAndAccept("node", 2);
        minions.get(1).close();

        Console.Run run = jsalt("-t", "2", "node-*", "test.ping");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.NO_RETURN.code());
        assertThat(run.stdout()).contains("node-01:\n    True\n").contains("node-02:\n    Minion did not return. [Not connected]\n");
    }

    @Test
    void aMinionWhoseKeyIsDeletedThroughTheMasterNoLongerGetsJobs() throws Exception {
        cluster = new InProcessCluster(tmp).startMaster();
        startAndAccept("node", 2);

        Console.Run deleted = jsaltKey("-d", "node-02", "-y");
        assertThat(deleted.stdout()).contains("Key for minion node-02 deleted.");
        assertThat(cluster.master().keys().stateOf("node-02")).as("the master changed its store").isEmpty();

        Console.Run run = jsalt("--out", "json", "--static", "-t", "10", "*", "test.ping");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(Json.parse(run.stdout())).as("the rotated session key reached node-01 only")
                .isEqualTo(Map.of("node-01", true));
    }
}
