package io.jsalt.cli.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.cli.run.RunCommand;
import io.jsalt.cli.testing.Console;
import io.jsalt.cli.testing.InProcessCluster;
import io.jsalt.master.keys.KeyState;
import io.jsalt.minion.testing.SaltVectors;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.event.EventFrame;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** jsalt-call on a minion's config: locally, and returning to a real master in this JVM. */
class CallCommandTest {
    private static final String ID = "caller-01";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path tmp;

    private InProcessCluster cluster;
    private Path minionConf;

    @BeforeEach
    void setUp() throws IOException {
        cluster = new InProcessCluster(tmp.resolve("cluster"));
        Path root = tmp.resolve("minion-root");
        minionConf = tmp.resolve("minion-conf");
        Files.createDirectories(minionConf);
        Files.writeString(minionConf.resolve("minion"), String.join("\n",
                "id: " + ID,
                "root_dir: " + root,
                "master: 127.0.0.1",
                "master_port: " + cluster.masterConfig().retPort(),
                "publish_port: " + cluster.masterConfig().publishPort(),
                "auth_timeout: 3",
                "grains:",
                "  role: caller",
                ""));
        Path pki = root.resolve("etc/jsalt/pki/minion");
        Files.createDirectories(pki);
        Files.writeString(pki.resolve("minion.pem"), SaltVectors.text("keys/minion.pem"));
        Files.writeString(pki.resolve("minion.pub"), SaltVectors.text("keys/minion.pub"));
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private Console.Run call(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "-c";
        all[1] = minionConf.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return Console.run(CallCommand::new, all);
    }

    private void acceptKey() throws IOException {
        cluster.startMaster();
        cluster.master().keys().store(KeyState.ACCEPTED, ID, SaltVectors.text("keys/minion.pub"));
    }

    @Test
    void localRunsTheFunctionHereWithoutAMasterAndPrintsItUnderLocal() {
        Console.Run r = call("--local", "test.ping");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).isEqualTo("local:\n    True\n");
    }

    @Test
    void aStateRunIsShownWithTheHighstateOutputterUnlessAnotherIsChosen() {
        Console.Run highstate = call("--local", "state.single", "test.succeed_with_changes", "name=demo");
        Console.Run terse = call("--local", "--state-output", "terse", "state.single", "test.succeed_without_changes", "name=demo");
        Console.Run json = call("--local", "--out", "json", "state.single", "test.succeed_with_changes", "name=demo");

        assertThat(highstate.exitCode()).as(highstate.toString()).isZero();
        assertThat(highstate.stdout()).startsWith("local:\n----------\n          ID: demo\n    Function: test.succeed_with_changes\n"
                + "      Result: True\n     Comment: Success!\n").contains("\nSummary for local\n------------\nSucceeded: 1 (changed=1)\n");
        assertThat(terse.stdout()).startsWith("local:\n  Name: demo - Function: test.succeed_without_changes - Result: Clean - Started: ");
        assertThat(json.stdout()).startsWith("{\n    \"local\": {\n        \"test_|-demo_|-demo_|-succeed_with_changes\": {");
    }

    @Test
    void theMinionConfigsStateOutputKeysAreTheDefaultsAndTheFlagsOverrideThem() throws IOException {
        Files.writeString(minionConf.resolve("minion"), Files.readString(minionConf.resolve("minion"))
                + "state_output: terse\nstate_verbose: False\nstate_output_profile: False\n");

        Console.Run quiet = call("--local", "state.single", "test.succeed_without_changes", "name=demo");
        Console.Run terse = call("--local", "state.single", "test.succeed_with_changes", "name=demo");
        Console.Run full = call("--local", "--state-output", "full", "--state-verbose", "True", "state.single",
                "test.succeed_without_changes", "name=demo");

        // state_verbose False: the unchanged state is left out, only the summary remains
        assertThat(quiet.stdout()).as(quiet.toString()).doesNotContain("Name: demo").contains("Summary for local");
        // terse, and without state_output_profile no Started or Duration
        assertThat(terse.stdout()).startsWith("local:\n  Name: demo - Function: test.succeed_with_changes - Result: Changed\n")
                .doesNotContain("Started").doesNotContain("Total run time");
        assertThat(full.stdout()).contains("          ID: demo\n    Function: test.succeed_without_changes\n");

        Files.writeString(minionConf.resolve("minion"), Files.readString(minionConf.resolve("minion"))
                .replace("state_output: terse", "state_output: filter"));
        Console.Run bad = call("--local", "test.ping");
        assertThat(bad.exitCode()).isNotZero();
        assertThat(bad.stderr()).contains("state_output").contains("full, terse, mixed, changes");
    }

    @Test
    void localGrainsIncludeTheConfigsGrainsAndTheId() {
        Console.Run r = call("--local", "--out", "json", "grains.item", "id", "role");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).isEqualTo("{\n    \"local\": {\n        \"id\": \"caller-01\",\n        \"role\": \"caller\"\n    }\n}\n");
    }

    @Test
    void aFailedFunctionExits1OrItsOwnRetcodeWithPassthrough() {
        Console.Run plain = call("--local", "test.retcode", "5");
        Console.Run passthrough = call("--local", "--retcode-passthrough", "test.retcode", "5");

        assertThat(plain.exitCode()).as(plain.toString()).isEqualTo(1);
        assertThat(passthrough.exitCode()).as(passthrough.toString()).isEqualTo(5);
        assertThat(passthrough.stdout()).startsWith("local:\n");
    }

    @Test
    void aRunningCallHasAProcRecordAsSaltCallWritesOneRemovedWhenItEnds() throws Exception {
        Path proc = tmp.resolve("minion-root/var/cache/jsalt/minion/proc");
        CompletableFuture<Console.Run> running = CompletableFuture.supplyAsync(() -> call("--local", "test.sleep", "2"));

        await().atMost(WAIT).until(() -> Files.isDirectory(proc) && listed(proc).size() == 1);
        Path record = listed(proc).get(0);
        Map<String, Object> data = Wire.asMap(SaltPack.unpack(Files.readAllBytes(record)));
        assertThat(data).containsEntry("fun", "test.sleep").containsEntry("tgt", "salt-call")
                .containsEntry("jid", record.getFileName().toString()).containsEntry("pid", ProcessHandle.current().pid());
        assertThat(running.join().exitCode()).isZero();
        assertThat(listed(proc)).isEmpty();
    }

    private static List<Path> listed(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> !f.getFileName().toString().startsWith(".")).toList();
        }
    }

    @Test
    void anUnknownFunctionRunsNothingAndSaysSoOnStderr() {
        Console.Run r = call("--local", "nope.nothing");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).isEqualTo("ERROR: 'nope.nothing' is not available.\n");
    }

    @Test
    void withAMasterTheReturnBecomesAJobThatJsaltRunFinds() throws Exception {
        acceptKey();

        Console.Run r = call("--show-jid", "test.echo", "hello");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        Matcher m = Pattern.compile("^jid: (\\d{20})\nlocal:\n    hello\n$").matcher(r.stdout());
        assertThat(m.matches()).as(r.toString()).isTrue();
        String jid = m.group(1);
        await().atMost(WAIT).until(() -> cluster.sawEvent("salt/job/" + jid + "/ret/" + ID));
        Optional<EventFrame> ret = cluster.events().stream().filter(e -> e.tag().equals("salt/job/" + jid + "/ret/" + ID)).findFirst();
        assertThat(ret.orElseThrow().data()).containsEntry("return", "hello").containsEntry("fun", "test.echo");

        Console.Run lookup = Console.run(RunCommand::new, "-c", cluster.configDir().toString(), "--out", "json", "jobs.lookup_jid", jid);
        assertThat(lookup.exitCode()).as(lookup.toString()).isZero();
        assertThat(lookup.stdout()).isEqualTo("{\n    \"caller-01\": \"hello\"\n}\n");
    }

    @Test
    void withAMasterAStateRunRendersWithThePillarTheMasterCompiles() throws Exception {
        Path srv = tmp.resolve("cluster/master/srv");
        Files.createDirectories(srv.resolve("jsalt"));
        Files.createDirectories(srv.resolve("pillar"));
        Files.writeString(srv.resolve("jsalt/app.sls"), "app:\n  test.nop:\n    - port: {{ pillar['app']['port'] }}\n");
        Files.writeString(srv.resolve("pillar/top.sls"), "base:\n  '" + ID + "':\n    - app\n");
        Files.writeString(srv.resolve("pillar/app.sls"), "app:\n  port: 8443\n");
        acceptKey();

        Console.Run r = call("--out", "json", "state.show_sls", "app");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).as(r.toString()).contains("\"port\": 8443");
    }

    @Test
    void aPendingKeyIsAClearErrorWithSaltCallsExitCode2() throws Exception {
        cluster.startMaster();

        Console.Run r = call("test.ping");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).contains("has the minion key been accepted?", "jsalt-key -a " + ID);
        assertThat(cluster.master().keys().stateOf(ID)).contains(KeyState.PENDING);
    }

    @Test
    void aRejectedKeyExits77() throws Exception {
        cluster.startMaster();
        cluster.master().keys().store(KeyState.REJECTED, ID, SaltVectors.text("keys/minion.pub"));

        Console.Run r = call("test.ping");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(77);
        assertThat(r.stderr()).contains("rejected the key of '" + ID + "'");
    }

    @Test
    void withNoMasterRunningItExits69AfterAuthTimeout() {
        Console.Run r = call("test.ping");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(69);
        assertThat(r.stderr()).contains("did not answer the sign-in within 3 s");
    }

    @Test
    void aBadCommandLineExits64() {
        assertThat(call().exitCode()).isEqualTo(64);
        assertThat(call("--local", "--out", "fancy", "test.ping").exitCode()).isEqualTo(64);
        assertThat(call("-g", "test.ping").exitCode()).isEqualTo(64);
    }

    @Test
    void printsTheGrainsWithDashG() {
        Console.Run r = call("--local", "-g", "--out", "json");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).contains("\"role\": \"caller\"", "\"id\": \"caller-01\"");
    }
}
