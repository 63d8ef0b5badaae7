package io.jsalt.cli.jsalt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.cli.key.KeyCommand;
import io.jsalt.cli.run.RunCommand;
import io.jsalt.cli.testing.Console;
import io.jsalt.cli.testing.InProcessCluster;
import io.jsalt.master.keys.KeyState;
import io.jsalt.minion.Minion;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** jsalt's reporting options against a master and two minions in this JVM; 'ghost' is accepted but never runs. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JsaltOptionsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private InProcessCluster cluster;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        cluster = new InProcessCluster(tmp).startMaster();
        List<Minion> minions = cluster.startMinions("node", 2);
        await().atMost(WAIT).until(() -> cluster.master().keys().list(KeyState.PENDING).size() == 2);
        Console.Run accepted = Console.run(out -> new KeyCommand(out, new ByteArrayInputStream(new byte[0])),
                "-c", cluster.configDir().toString(), "-A", "-y");
        assertThat(accepted.exitCode()).as(accepted.toString()).isZero();
        cluster.master().keys().store(KeyState.ACCEPTED, "ghost", Files.readString(
                cluster.master().keys().pkiDir().resolve("minions/node-01")));
        await().atMost(WAIT).until(() -> minions.stream().allMatch(m -> m.state() == Minion.State.SIGNED_IN));
        // ghost never answers find_job either: one second for that round keeps these tests quick
        Files.writeString(cluster.configDir().resolve("master"), "gather_job_timeout: 1\n", java.nio.file.StandardOpenOption.APPEND);
    }

    @AfterAll
    void stop() {
        cluster.close();
    }

    private Console.Run jsalt(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "-c";
        all[1] = cluster.configDir().toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return Console.run(JsaltCommand::new, all);
    }

    @Test
    void asyncPrintsTheJidAndDoesNotWait() {
        Console.Run run = jsalt("--async", "*", "test.sleep", "30");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).matches("Executed command with job ID: [0-9]{20}\\R");
    }

    @Test
    void summaryCountsTargetedReturnedMissingAndErrors() {
        Console.Run run = jsalt("-t", "3", "--summary", "node-*", "cmd.retcode", "false");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
        assertThat(run.stdout()).contains("# of minions targeted: 2", "# of minions returned: 2",
                "# of minions that did not return: 0", "# of minions with errors: 2");

        Console.Run withGhost = jsalt("-t", "2", "--summary", "*", "test.ping");
        assertThat(withGhost.exitCode()).isEqualTo(2);
        assertThat(withGhost.stdout()).contains("# of minions targeted: 3", "# of minions that did not return: 1",
                "Minions not connected: ghost");
        // Salt says it for a minion that did not return too (its retcode counts as 1 there)
        assertThat(withGhost.stderr()).contains(JsaltCommand.NON_ZERO);
    }

    @Test
    void aFailingCommandSaysSoOnStderrAsSaltDoesWhateverTheOutput() {
        Console.Run failed = jsalt("node-*", "cmd.run", "exit 3");
        assertThat(failed.exitCode()).as(failed.toString()).isEqualTo(1);
        assertThat(failed.stdout().lines()).containsExactlyInAnyOrder("node-01:", "node-02:");
        assertThat(failed.stderr()).isEqualTo(JsaltCommand.NON_ZERO + "\n");

        Console.Run quiet = jsalt("--out", "quiet", "node-01", "cmd.run", "exit 3");
        assertThat(quiet.stderr()).isEqualTo(JsaltCommand.NON_ZERO + "\n");

        Console.Run ok = jsalt("node-*", "cmd.run", "true");
        assertThat(ok.exitCode()).isZero();
        assertThat(ok.stderr()).isEmpty();
    }

    @Test
    void sysListRunnersOnAMinionNamesTheRunnerModulesTheMasterAndJsaltRunServe() {
        Console.Run listed = jsalt("--out", "json", "--static", "node-01", "sys.list_runners");
        assertThat(listed.exitCode()).as(listed.toString()).isZero();
        Console.Run docs = Console.run(RunCommand::new, "-c", cluster.configDir().toString(), "--out", "json", "doc.runner");
        assertThat(docs.exitCode()).as(docs.toString()).isZero();

        java.util.Set<String> served = new java.util.TreeSet<>(List.of("state")); // jsalt-run serves state.event itself
        ((Map<?, ?>) parseJson(docs.stdout())).keySet().forEach(f -> served.add(String.valueOf(f).split("\\.")[0]));
        assertThat(((Map<?, ?>) parseJson(listed.stdout())).get("node-01")).isEqualTo(List.copyOf(served));
    }

    /** JSON is YAML 1.2: the YAML reader jsalt already has reads it. */
    private static Object parseJson(String json) {
        return new org.snakeyaml.engine.v2.api.Load(org.snakeyaml.engine.v2.api.LoadSettings.builder().build()).loadFromString(json);
    }

    @Test
    void hideTimeoutLeavesOutTheSilentMinionButTheExitCodeStillSaysSo() {
        Console.Run run = jsalt("-t", "2", "--hide-timeout", "*", "test.ping");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stdout()).contains("node-01:").doesNotContain("ghost");
    }

    @Test
    void verboseAndShowJidPrintTheJidFirst() {
        assertThat(jsalt("-v", "node-01", "test.ping").stdout()).matches("(?s)Executing job with jid [0-9]{20}\\R-+\\R\\Rnode-01:.*");
        assertThat(jsalt("--show-jid", "node-01", "test.ping").stdout()).matches("(?s)jid: [0-9]{20}\\Rnode-01:\\R    True\\R");
    }

    @Test
    void txtRawQuietAndJsonIndentPrintAsSaltsOutputters() {
        assertThat(jsalt("--out", "txt", "node-01", "cmd.run", "printf 'a\\nb'").stdout()).isEqualTo("node-01: a\nnode-01: b\n");
        assertThat(jsalt("--out", "raw", "node-01", "test.kwarg", "x=1", "y=None").stdout()).isEqualTo("{'node-01': {'x': 1, 'y': None}}\n");
        Console.Run quiet = jsalt("--out", "quiet", "node-*", "test.ping");
        assertThat(quiet.exitCode()).isZero();
        assertThat(quiet.stdout()).isEmpty();
        assertThat(jsalt("--out", "json", "--out-indent", "0", "--static", "node-01", "test.ping").stdout()).isEqualTo("{\"node-01\":true}\n");
    }

    @Test
    void outFileTakesTheReturnsAndTheTerminalKeepsTheRest(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("returns.json");
        Console.Run run = jsalt("--out", "json", "--static", "--out-file", file.toString(), "--show-jid", "node-01", "test.ping");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).startsWith("jid: ").doesNotContain("node-01");
        assertThat(Files.readString(file)).contains("\"node-01\": true");
    }

    @Test
    void unknownOutputterIsAUsageErrorNamingTheChoices() {
        Console.Run run = jsalt("--out", "fancy", "*", "test.ping");
        assertThat(run.exitCode()).isEqualTo(64);
        assertThat(run.stderr()).contains("nested, highstate, json, yaml, txt, raw, quiet");
    }
}
