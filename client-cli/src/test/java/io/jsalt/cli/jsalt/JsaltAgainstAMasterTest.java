package io.jsalt.cli.jsalt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.cli.ExitCode;
import io.jsalt.cli.key.KeyCommand;
import io.jsalt.cli.run.RunCommand;
import io.jsalt.cli.testing.Console;
import io.jsalt.cli.testing.InProcessCluster;
import io.jsalt.master.keys.KeyState;
import io.jsalt.minion.Minion;
import io.jsalt.transport.event.EventFrame;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * jsalt's waiting, reporting, targeting preview and batch mode against a real master and minions in this
 * JVM: node-01 and node-02 run, node-03 is accepted but stopped. The CLI's config sets gather_job_timeout
 * to 2 s, so only find_job can keep a job longer than -t from being reported missing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JsaltAgainstAMasterTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private InProcessCluster cluster;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        cluster = new InProcessCluster(tmp).startMaster();
        List<Minion> minions = cluster.startMinions("node", 3);
        await().atMost(WAIT).until(() -> cluster.master().keys().list(KeyState.PENDING).size() == 3);
        Console.Run accepted = Console.run(out -> new KeyCommand(out, new ByteArrayInputStream(new byte[0])),
                "-c", cluster.configDir().toString(), "-A", "-y");
        assertThat(accepted.exitCode()).as(accepted.toString()).isZero();
        await().atMost(WAIT).until(() -> minions.stream().allMatch(m -> m.state() == Minion.State.SIGNED_IN));
        minions.get(2).close();
        Files.writeString(cluster.configDir().resolve("master"), "gather_job_timeout: 2\n", StandardOpenOption.APPEND);
    }

    @AfterAll
    void stop() {
        cluster.close();
    }

    private Console.Run jsalt(Consumer<JsaltCommand> setUp, String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "-c";
        all[1] = cluster.configDir().toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return Console.run(out -> {
            JsaltCommand cmd = new JsaltCommand(out);
            cmd.terminal = Terminal.NONE;
            setUp.accept(cmd);
            return cmd;
        }, all);
    }

    private Console.Run jsalt(String... args) {
        return jsalt(cmd -> {}, args);
    }

    @Test
    void aJobLongerThanTheTimeoutStillReturnsBecauseFindJobSaysItIsRunning() {
        Console.Run run = jsalt("-t", "1", "-L", "node-01,node-02", "test.sleep", "5");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).contains("node-01:\n    True\n", "node-02:\n    True\n").doesNotContain("did not return");
    }

    @Test
    void aReturnWhoseEventWasLostIsFoundInTheJobCacheAndPrintedAsReturned() {
        Console.Run run = jsalt(cmd -> cmd.linkWrapper = link -> new DroppingLink(link, "node-02"),
                "-t", "1", "-L", "node-01,node-02", "test.echo", "hello");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).contains("node-01:\n    hello\n", "node-02:\n    hello\n").doesNotContain("did not return");
    }

    @Test
    void aStoppedMinionIsReportedAsNotConnectedAndTheExitCodeSaysSo() {
        Console.Run run = jsalt("-t", "1", "node-*", "test.ping");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.NO_RETURN.code());
        assertThat(run.stdout()).contains("node-01:\n    True\n", "node-02:\n    True\n",
                "node-03:\n    Minion did not return. [Not connected]\n");
    }

    @Test
    void previewTargetListsTheMatchedMinionsAndRunsNothing() {
        Console.Run run = jsalt("--preview-target", "-L", "node-01,node-03");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).isEqualTo("- node-01\n- node-03\n");
        assertThat(jsalt("--preview-target", "--out", "json", "--out-indent", "0", "node-*").stdout())
                .isEqualTo("[\"node-01\",\"node-02\",\"node-03\"]\n");
    }

    @Test
    void aTargetThatMatchesNothingSaysSoAndExitsNonZero() {
        Console.Run preview = jsalt("--preview-target", "nothing*");
        assertThat(preview.exitCode()).as(preview.toString()).isEqualTo(ExitCode.NO_RETURN.code());
        assertThat(preview.stderr()).contains("No minions matched the target.");

        Console.Run run = jsalt("nothing*", "test.ping");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.NO_RETURN.code());
        assertThat(run.stderr()).contains("No minions matched the target.");
        assertThat(run.stdout()).isEmpty();
    }

    @Test
    void aTargetTheMasterCannotReadIsAUsageError() {
        Console.Run run = jsalt("-G", "no-colon-here", "test.ping");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE.code());
        assertThat(run.stderr()).containsIgnoringCase("invalid target");

        Console.Run preview = jsalt("--preview-target", "-G", "no-colon-here");
        assertThat(preview.exitCode()).as(preview.toString()).isEqualTo(ExitCode.USAGE.code());
        assertThat(preview.stderr()).containsIgnoringCase("invalid target");
    }

    @Test
    void aBatchOverAStoppedMinionFinishesAndReportsIt() {
        Console.Run run = jsalt("-t", "1", "-b", "1", "node-*", "test.ping");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.NO_RETURN.code());
        assertThat(run.stderr()).contains("Executing run on ['node-01']", "Executing run on ['node-02']", "Executing run on ['node-03']");
        assertThat(run.stdout()).contains("node-01:\n    True\n", "node-02:\n    True\n",
                "node-03:\n    Minion did not return. [Not connected]\n");
    }

    @Test
    void failhardStopsTheBatchAfterAFailingMinion() {
        Console.Run run = jsalt("-b", "1", "--failhard", "-L", "node-01,node-02", "cmd.retcode", "false");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.MINION_ERROR.code());
        assertThat(run.stdout()).contains("node-01:").doesNotContain("node-02");
        assertThat(run.stderr()).contains("Minion node-01 returned with non-zero exit code. Batch run stopped due to failhard");
    }

    @Test
    void onATerminalTheProgressBarGoesToStderrAndTheOutputIsColoured() {
        Console.Run run = jsalt(cmd -> cmd.terminal = new Terminal(true, true), "-p", "-L", "node-01,node-02", "test.ping");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stderr()).contains("Returns: [2/2]");
        assertThat(run.stdout()).contains("\u001b[0;36mnode-01\u001b[0;0m:\n    \u001b[0;1;33mTrue\u001b[0;0m\n");

        Console.Run plain = jsalt(cmd -> cmd.terminal = new Terminal(true, true), "--no-color", "-L", "node-01", "test.ping");
        assertThat(plain.stdout()).isEqualTo("node-01:\n    True\n");
    }

    @Test
    void offATerminalThereIsNoBarAndNoColourUnlessForced() {
        Console.Run run = jsalt("-p", "-L", "node-01", "test.ping");
        assertThat(run.stderr()).isEmpty();
        assertThat(run.stdout()).isEqualTo("node-01:\n    True\n");

        Console.Run forced = jsalt("--force-color", "-L", "node-01", "test.ping");
        assertThat(forced.stdout()).contains("\u001b[0;36mnode-01");
    }

    @Test
    void theHintForASilentMinionCarriesTheConfigFolderSoItWorksWhenPasted() {
        // a master that cannot say who is connected: the stopped node-03 is then a [No response] with the hint
        Console.Run run = jsalt(cmd -> cmd.linkWrapper = link -> new ForwardingLink(link) {
            @Override
            public Optional<Set<String>> present() {
                return Optional.empty();
            }
        }, "-t", "1", "-L", "node-01,node-03", "test.ping");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
        Matcher hint = Pattern.compile("(?m)^    (jsalt-run .*)$").matcher(run.stdout());
        assertThat(hint.find()).as(run.toString()).isTrue();
        assertThat(hint.group(1)).matches("jsalt-run -c " + cluster.configDir() + " jobs.lookup_jid [0-9]{20}");

        String[] words = hint.group(1).split(" "); // the temporary folder's path has no spaces
        Console.Run pasted = Console.run(RunCommand::new, Arrays.copyOfRange(words, 1, words.length));
        assertThat(pasted.exitCode()).as(pasted.toString()).isZero();
        assertThat(pasted.stdout()).contains("node-01:\n    True");
    }

    @Test
    void ctrlCWhileWaitingNamesTheJidToLookUpLater() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
        JsaltCommand[] command = new JsaltCommand[1];
        Console.Run run = jsalt(cmd -> {
            command[0] = cmd;
            cmd.linkWrapper = link -> new ForwardingLink(link) {
                @Override
                public Optional<EventFrame> nextEvent(Duration timeout) throws IOException {
                    if (err.size() == 0) {
                        cmd.interrupted(errStream); // what the shutdown hook does on Ctrl-C while jsalt waits
                    }
                    return super.nextEvent(timeout);
                }
            };
        }, "-L", "node-01", "test.ping");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).matches("(?s)\\R?Exiting gracefully on Ctrl-c\\RThis job's jid is: ([0-9]{20})\\R"
                + "The minions may not have all finished running.*\\R\\Rjsalt-run -c " + cluster.configDir() + " jobs.lookup_jid [0-9]{20}\\R");
        err.reset();
        command[0].interrupted(errStream);
        assertThat(err.toString(StandardCharsets.UTF_8)).as("nothing is in flight once the command has ended").isEmpty();
    }

    /** Hands everything to the real link; tests override what they change. */
    private static class ForwardingLink implements MasterLink {
        private final MasterLink link;

        ForwardingLink(MasterLink link) {
            this.link = link;
        }

        @Override
        public Published publish(JobSpec job) {
            return link.publish(job);
        }

        @Override
        public Optional<EventFrame> nextEvent(Duration timeout) throws IOException {
            return link.nextEvent(timeout);
        }

        @Override
        public Map<String, Answer> storedReturns(String jid) {
            return link.storedReturns(jid);
        }

        @Override
        public Optional<Set<String>> present() {
            return link.present();
        }

        @Override
        public TargetPreview preview(Object tgt, String tgtType) {
            return link.preview(tgt, tgtType);
        }
    }

    /** Loses every return event of one minion on its way to the CLI, as a dropped event would. */
    private static final class DroppingLink extends ForwardingLink {
        private final String minion;

        DroppingLink(MasterLink link, String minion) {
            super(link);
            this.minion = minion;
        }

        @Override
        public Optional<EventFrame> nextEvent(Duration timeout) throws IOException {
            Optional<EventFrame> e = super.nextEvent(timeout);
            return e.isPresent() && e.get().tag().matches("salt/job/[0-9]+/ret/" + minion) ? Optional.empty() : e;
        }
    }
}
