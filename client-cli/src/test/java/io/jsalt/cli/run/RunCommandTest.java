package io.jsalt.cli.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.cli.MasterConnection;
import io.jsalt.cli.testing.Console;
import io.jsalt.cli.testing.InProcessCluster;
import io.jsalt.master.keys.KeyState;
import io.jsalt.minion.Minion;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.message.PublishRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** jsalt-run against a real master in this JVM, with its real runners. */
class RunCommandTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

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

    private Console.Run run(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "-c";
        all[1] = cluster.configDir().toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return Console.run(RunCommand::new, all);
    }

    private List<Minion> signedIn(String prefix, int count) throws Exception {
        List<Minion> minions = cluster.startMinions(prefix, count);
        await().atMost(WAIT).until(() -> cluster.master().keys().list(KeyState.PENDING).size() == count);
        minions.forEach(m -> cluster.master().keys().move(m.id(), KeyState.PENDING, KeyState.ACCEPTED));
        await().atMost(WAIT).until(() -> minions.stream().allMatch(m -> m.state() == Minion.State.SIGNED_IN));
        return minions;
    }

    @Test
    void printsManageStatusAsSaltRunDoes() throws Exception {
        signedIn("web", 2);

        Console.Run r = run("manage.status");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).isEqualTo("down:\nup:\n    - web-01\n    - web-02\n");
    }

    @Test
    void looksUpAJobsReturnsByJidInJson() throws Exception {
        signedIn("web", 1);
        String jid;
        try (MasterConnection master = MasterConnection.open(cluster.masterConfig())) {
            PublishRequest ping = new PublishRequest("web-01", "test.ping", List.of(), "glob", "root", "", Map.of());
            jid = Wire.string(master.call(ping.toLoad(), Duration.ofSeconds(10)), "jid");
        }
        await().atMost(WAIT).until(() -> cluster.sawEvent("salt/job/" + jid + "/ret/web-01"));

        Console.Run r = run("--out", "json", "jobs.lookup_jid", jid);

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).isEqualTo("{\n    \"web-01\": true\n}\n");
    }

    @Test
    void anUnknownRunnerFunctionExits1WithSaltsMessageOnStderr() {
        Console.Run r = run("nope.nothing");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).isEqualTo("ERROR: 'nope.nothing' is not available.\n");
    }

    @Test
    void badArgumentsExit1AndNameTheSignature() {
        Console.Run r = run("jobs.lookup_jid");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.stderr()).startsWith("ERROR: ").contains("jobs.lookup_jid");
    }

    @Test
    void stateEventStreamsTheBusLikeJsaltEventWithPrettyJson() {
        CompletableFuture<Console.Run> stream = CompletableFuture.supplyAsync(() -> run("state.event", "my/tag/*", "count=1", "pretty=True"));
        // the reader registers asynchronously: fire until it has printed one
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
            cluster.master().events().fire("other/tag", Map.of("x", 1));
            cluster.master().events().fire("my/tag/1", Map.of("b", 2, "a", 1));
            return stream.isDone();
        });
        Console.Run r = stream.join();

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).startsWith("my/tag/1\t{\n    \"_stamp\": \"").contains("\n    \"a\": 1,\n    \"b\": 2\n}\n");
    }

    @Test
    void withTheMasterDownItSaysSoAndExits69() {
        cluster.close();

        Console.Run r = run("manage.up");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(69);
        assertThat(r.stderr()).startsWith("ERROR: ");
    }

    @Test
    void aBadCommandLineExits64() {
        assertThat(run().exitCode()).isEqualTo(64);
        assertThat(run("--out", "fancy", "manage.up").exitCode()).isEqualTo(64);
        assertThat(run("state.event", "a", "b", "c").exitCode()).isEqualTo(64);
    }
}
