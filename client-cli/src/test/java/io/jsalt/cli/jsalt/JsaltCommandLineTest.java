package io.jsalt.cli.jsalt;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.cli.ExitCode;
import io.jsalt.cli.ToolRunner;
import io.jsalt.cli.testing.Console;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The jsalt command line without a master: targeting flags, batch options and the usage errors. */
class JsaltCommandLineTest {
    @TempDir
    Path noMaster;

    private static JsaltCommand parse(String... args) {
        JsaltCommand cmd = new JsaltCommand(new PrintStream(PrintStream.nullOutputStream()));
        ToolRunner.commandLine(cmd).parseArgs(args);
        return cmd;
    }

    private Console.Run jsalt(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "-c";
        all[1] = noMaster.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return Console.run(JsaltCommand::new, all);
    }

    @ParameterizedTest
    @CsvSource({
        "-E, pcre", "--pcre, pcre", "-L, list", "-G, grain", "--grain, grain", "-P, grain_pcre", "--grain-pcre, grain_pcre",
        "-I, pillar", "--pillar, pillar", "-J, pillar_pcre", "--pillar-pcre, pillar_pcre",
        "-S, ipcidr", "--ipcidr, ipcidr", "-C, compound", "--compound, compound", "-N, nodegroup", "--nodegroup, nodegroup"})
    void eachTargetingFlagSelectsSaltsTgtType(String flag, String tgtType) {
        assertThat(parse(flag, "x", "test.ping").targeting.tgtType()).isEqualTo(tgtType);
    }

    @Test
    void withoutAFlagTheTargetIsAGlob() {
        JsaltCommand cmd = parse("web*", "test.ping");
        assertThat(cmd.targeting.tgtType()).isEqualTo("glob");
        assertThat(cmd.targeting.tgt("web*")).isEqualTo("web*");
    }

    @Test
    void aListTargetIsSentAsAListOfIdsAsSaltsCliDoes() {
        JsaltCommand cmd = parse("-L", "a, b,c", "test.ping");
        assertThat(cmd.targeting.tgt(cmd.target)).isEqualTo(List.of("a", "b", "c"));
        assertThat(cmd.targeting.tgt("a b")).isEqualTo(List.of("a", "b"));
    }

    @Test
    void batchOptionsAndProgressAndColourFlagsAreRead() {
        JsaltCommand cmd = parse("-b", "25%", "--batch-wait", "3", "--failhard", "-p", "--no-colour", "*", "cmd.run", "ls -l");
        assertThat(cmd.batch).isEqualTo("25%");
        assertThat(cmd.batchWait).isEqualTo(3);
        assertThat(cmd.failhard).isTrue();
        assertThat(cmd.progress).isTrue();
        assertThat(cmd.noColor).isTrue();
        assertThat(cmd.args).containsExactly("ls -l");
        assertThat(parse("--batch-size", "2", "--force-color", "*", "test.ping").forceColor).isTrue();
    }

    @Test
    void wordsAfterDoubleDashAreArgumentsEvenWhenTheyLookLikeOptions() {
        JsaltCommand cmd = parse("*", "cmd.run", "--out", "json", "--", "-la", "--timeout", "-v");
        assertThat(cmd.out).isEqualTo("json");
        assertThat(cmd.args).containsExactly("-la", "--timeout", "-v");
        assertThat(cmd.verbose).isFalse();
    }

    @Test
    void optionsAreReadWhereverTheyStandAsSaltsOptparseDoes() {
        JsaltCommand cmd = parse("*", "test.ping", "--out", "json", "-t", "3");
        assertThat(cmd.out).isEqualTo("json");
        assertThat(cmd.timeout).isEqualTo(3);
        assertThat(cmd.args).isEmpty();
    }

    @Test
    void previewTargetNeedsNoFunction() {
        JsaltCommand cmd = parse("--preview-target", "-G", "os:Debian");
        assertThat(cmd.previewTarget).isTrue();
        assertThat(cmd.function).isNull();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "-G -E * test.ping | choose one of -E, -L, -G, -P, -I, -J, -S, -C, -N",
        "* | missing <function>",
        "--failhard * test.ping | --failhard needs --batch",
        "--batch-wait 2 * test.ping | --batch-wait needs --batch",
        "-b x * test.ping | Invalid batch data sent: x",
        "-b 2 --async * test.ping | choose one of --async and --batch",
        "--no-color --force-color * test.ping | choose one of --no-color and --force-color"})
    void badCombinationsAreUsageErrorsThatSayWhy(String args, String message) {
        Console.Run run = jsalt(args.trim().split(" "));

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE.code());
        assertThat(run.stderr()).contains(message);
    }
}
