package io.jsalt.cli.jsalt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.cli.ExitCode;
import io.jsalt.cli.key.KeyCommand;
import io.jsalt.cli.testing.Console;
import io.jsalt.cli.testing.InProcessCluster;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.keys.KeyState;
import io.jsalt.minion.Minion;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jsalt -a} and {@code -T} as a user who is not the master's: the CLI runs with a config of its own
 * (same ports, another root_dir), so it can read neither the master's client key nor its event socket, and
 * only its eauth credentials or token get jobs through, within the user's rights, checked by the master.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JsaltEauthTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private InProcessCluster cluster;
    private Path userConf;
    private Path home;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        Path users = Files.writeString(tmp.resolve("users"), "deploy:pw-deploy\n");
        cluster = new InProcessCluster(tmp).startMaster();
        Files.writeString(cluster.configDir().resolve("master"), """
                external_auth:
                  file:
                    ^filename: %s
                    deploy:
                      - 'node-*':
                        - test.*
                """.formatted(users), StandardOpenOption.APPEND);
        List<Minion> minions = cluster.startMinions("node", 2);
        await().atMost(WAIT).until(() -> cluster.master().keys().list(KeyState.PENDING).size() == 2);
        Console.Run accepted = Console.run(out -> new KeyCommand(out, new ByteArrayInputStream(new byte[0])),
                "-c", cluster.configDir().toString(), "-A", "-y");
        assertThat(accepted.exitCode()).as(accepted.toString()).isZero();
        await().atMost(WAIT).until(() -> minions.stream().allMatch(m -> m.state() == Minion.State.SIGNED_IN));
        userConf = Files.createDirectories(tmp.resolve("user-conf"));
        Files.writeString(userConf.resolve("master"), String.join("\n",
                "root_dir: " + tmp.resolve("elsewhere"),
                "interface: 127.0.0.1",
                "publish_port: " + cluster.masterConfig().publishPort(),
                "ret_port: " + cluster.masterConfig().retPort(),
                "timeout: 10", ""));
        home = Files.createDirectories(tmp.resolve("home"));
    }

    @AfterAll
    void stop() {
        cluster.close();
    }

    private Console.Run jsalt(Consumer<JsaltCommand> setUp, String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "-c";
        all[1] = userConf.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return Console.run(out -> {
            JsaltCommand cmd = new JsaltCommand(out);
            cmd.terminal = Terminal.NONE;
            cmd.tokenFile = home.resolve(".salt_token");
            cmd.env = name -> null;
            setUp.accept(cmd);
            return cmd;
        }, all);
    }

    private Console.Run jsalt(String... args) {
        return jsalt(cmd -> {}, args);
    }

    @Test
    void withoutTheClientKeyOrAnyCredentialsNothingRuns() throws Exception {
        Files.deleteIfExists(home.resolve(".salt_token"));
        Console.Run run = jsalt("node-01", "test.ping");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.UNAVAILABLE.code());
        assertThat(run.stderr()).contains("no client key");
    }

    @Test
    void anEauthUserRunsAnAllowedFunctionAndTheReturnsComeFromTheJobCache() {
        Console.Run run = jsalt("-a", "file", "--username", "deploy", "--password", "pw-deploy", "node-*", "test.echo", "hi");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).contains("node-01:\n    hi\n", "node-02:\n    hi\n");
        assertThat(cluster.master().jobs().jobsBetween(null, null)).filteredOn(j -> j.fun().equals("test.echo"))
                .extracting(Job::user).containsOnly("deploy");
    }

    @Test
    void theUserAndPasswordMayComeFromTheEnvironment() {
        Map<String, String> env = Map.of("JSALT_USERNAME", "deploy", "JSALT_PASSWORD", "pw-deploy");
        Console.Run run = jsalt(cmd -> cmd.env = env::get, "-a", "file", "node-01", "test.ping");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).contains("node-01:\n    True\n");
    }

    @Test
    void aFunctionOrATargetOutsideTheRightsIsRefusedByTheMaster() {
        Console.Run fun = jsalt("-a", "file", "--username", "deploy", "--password", "pw-deploy", "node-01", "cmd.run", "id");
        assertThat(fun.exitCode()).as(fun.toString()).isEqualTo(ExitCode.NO_PERMISSION.code());
        assertThat(fun.stderr()).contains("Authorization error occurred.");
        Console.Run nobody = jsalt("-a", "file", "--username", "deploy", "--password", "pw-deploy", "nobody", "test.ping");
        assertThat(nobody.exitCode()).as(nobody.toString()).isEqualTo(ExitCode.NO_PERMISSION.code());
        Console.Run wrong = jsalt("-a", "file", "--username", "deploy", "--password", "nope", "node-01", "test.ping");
        assertThat(wrong.exitCode()).as(wrong.toString()).isEqualTo(ExitCode.NO_PERMISSION.code());
        assertThat(wrong.stderr()).contains("Authentication failure of type \"eauth\" occurred.");
        assertThat(cluster.master().jobs().jobsBetween(null, null)).noneMatch(j -> j.fun().equals("cmd.run"));
    }

    @Test
    void minusTKeepsATokenInSaltTokenFileAndLaterCallsUseItWithoutAPassword() throws Exception {
        Console.Run first = jsalt("-a", "file", "-T", "--username", "deploy", "--password", "pw-deploy", "node-01", "test.ping");
        assertThat(first.exitCode()).as(first.toString()).isZero();
        Path tokenFile = home.resolve(".salt_token");
        assertThat(Files.readString(tokenFile)).matches("[0-9a-f]{64}");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile))).isEqualTo("rw-------");

        Console.Run later = jsalt("node-02", "test.echo", "with-token");

        assertThat(later.exitCode()).as(later.toString()).isZero();
        assertThat(later.stdout()).contains("node-02:\n    with-token\n");
    }

    @Test
    void minusTWithoutMinusAIsAUsageError() {
        Console.Run run = jsalt("-T", "node-01", "test.ping");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE.code());
    }
}
