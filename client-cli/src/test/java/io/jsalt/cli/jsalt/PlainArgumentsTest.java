package io.jsalt.cli.jsalt;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.cli.ExitCode;
import io.jsalt.cli.ToolRunner;
import io.jsalt.cli.testing.Console;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * jsalt's plain command lines, read without picocli, against picocli's reading of the annotated model: every
 * option of the model, under each of its names, sets what picocli sets; every other line is left to picocli.
 */
class PlainArgumentsTest {
    private static final PrintStream NOWHERE = new PrintStream(PrintStream.nullOutputStream());

    @TempDir
    Path tmp;

    private static JsaltCommand fresh() {
        return new JsaltCommand(NOWHERE);
    }

    private static JsaltCommand byPicocli(List<String> argv) {
        JsaltCommand cmd = fresh();
        ToolRunner.commandLine(cmd).parseArgs(argv.toArray(String[]::new));
        return cmd;
    }

    private static JsaltCommand plainly(List<String> argv) {
        JsaltCommand cmd = fresh();
        assertThat(PlainArguments.read(argv.toArray(String[]::new), cmd)).as("read plainly: %s", argv).isTrue();
        return cmd;
    }

    /** Every option and parameter field of the command and of its mixins, by name, with its value. */
    private static Map<String, Object> parsed(JsaltCommand cmd) {
        Map<String, Object> values = new LinkedHashMap<>();
        collect(cmd, "", values);
        return values;
    }

    private static void collect(Object object, String prefix, Map<String, Object> values) {
        for (Field f : object.getClass().getDeclaredFields()) {
            try {
                f.setAccessible(true);
                if (f.isAnnotationPresent(CommandLine.Mixin.class)) {
                    collect(f.get(object), prefix + f.getName() + ".", values);
                } else if (f.isAnnotationPresent(CommandLine.Option.class) || f.isAnnotationPresent(CommandLine.Parameters.class)) {
                    values.put(prefix + f.getName(), f.get(object));
                }
            } catch (IllegalAccessException e) {
                throw new AssertionError(e);
            }
        }
    }

    private static List<OptionSpec> options() {
        return ToolRunner.commandLine(fresh()).getCommandSpec().options();
    }

    private static boolean helpOption(OptionSpec option) {
        return option.usageHelp() || option.versionHelp() || option.help();
    }

    /** A value of the option's type that picocli and the plain reader must both take. */
    private static String sampleValue(OptionSpec option) {
        Class<?> type = option.type();
        if (type == Integer.class || type == int.class) {
            return "7";
        }
        return type == Path.class ? "/tmp/a folder/x" : "some value";
    }

    private static void assertReadAlike(List<String> argv) {
        assertThat(parsed(plainly(argv))).as("%s", argv).isEqualTo(parsed(byPicocli(argv)));
    }

    @Test
    void everyOptionOfTheAnnotatedModelUnderEachOfItsNamesIsReadAsPicocliReadsIt() {
        int checked = 0;
        for (OptionSpec option : options()) {
            if (helpOption(option)) {
                continue;
            }
            assertThat(PlainArguments.takesValue(PlainArguments.key(option.longestName())))
                    .as("%s takes a value", option.longestName()).isEqualTo(option.arity().max() > 0);
            for (String name : option.names()) {
                List<String> argv = new ArrayList<>(List.of(name));
                if (option.arity().max() > 0) {
                    argv.add(sampleValue(option));
                }
                argv.addAll(List.of("web*", "test.arg", "a", "k=v"));
                assertReadAlike(argv);
                // after the positional arguments too: Salt's interspersed options
                List<String> after = new ArrayList<>(argv.subList(argv.size() - 4, argv.size()));
                after.addAll(argv.subList(0, argv.size() - 4));
                assertReadAlike(after);
                checked++;
            }
        }
        assertThat(checked).as("option names checked").isGreaterThan(50);
    }

    @Test
    void eachOptionHasItsOwnKeyAndEveryNameOfAnOptionTheSame() {
        Set<String> keys = new HashSet<>();
        for (OptionSpec option : options()) {
            if (helpOption(option)) {
                continue;
            }
            String key = PlainArguments.key(option.names()[0]);
            assertThat(key).as(option.longestName()).isNotNull();
            assertThat(keys.add(key)).as("%s has a key of its own", option.longestName()).isTrue();
            for (String name : option.names()) {
                assertThat(PlainArguments.key(name)).as(name).isEqualTo(key);
            }
        }
    }

    @Test
    void helpVersionAndTheVersionsReportAreLeftToPicocli() {
        for (OptionSpec option : options()) {
            if (helpOption(option)) {
                for (String name : option.names()) {
                    assertThat(PlainArguments.key(name)).as(name).isNull();
                }
            }
        }
        assertThat(options().stream().filter(PlainArgumentsTest::helpOption).flatMap(o -> List.of(o.names()).stream()))
                .contains("-h", "--help", "-V", "--version", "--versions-report");
    }

    @Test
    void everyOptionAtOnceWithItsValuesAndTheDefaultsOfTheOthers() {
        List<String> all = new ArrayList<>();
        for (OptionSpec option : options()) {
            if (!helpOption(option)) {
                all.add(option.names()[option.names().length - 1]);
                if (option.arity().max() > 0) {
                    all.add(sampleValue(option));
                }
            }
        }
        all.addAll(List.of("*", "cmd.run", "ls /", "cwd=/tmp"));
        assertReadAlike(all);
        assertReadAlike(List.of("*", "test.ping"));
        assertReadAlike(List.of("--preview-target", "-G", "os:Debian"));
        assertReadAlike(List.of("-c", "/etc/salt", "--out", "json", "-t", "0", "--out-indent", "0", "--batch-wait", "12", "*",
                "test.ping"));
        assertReadAlike(List.of("*", "test.arg", "1", "2", "x=y", "=", "a b"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "-h", "--help", "-V", "--version", "--versions-report|*|test.ping", "--|*|test.ping", "*|test.ping|--|-x",
        "--out=json|*|test.ping", "-vs|*|test.ping", "-t5|*|test.ping", "@args.txt", "*|test.ping|@args.txt",
        "|test.ping", "*|", "-v|-v|*|test.ping", "-v|--verbose|*|test.ping", "-b|1|--batch-size|2|*|test.ping",
        "-t|-1|*|test.ping", "-t|+5|*|test.ping", "-t|0x10|*|test.ping", "-t|1234567890|*|test.ping", "-t|five|*|test.ping",
        "--out-indent|-2|*|test.ping", "--batch-wait||*|test.ping", "*|test.ping|-t", "--out|-v|*|test.ping",
        "--out|@f|*|test.ping", "-v", "", "--outt|json|*|test.ping", "*|test.arg|-1", "*|test.arg|-", "-c"})
    void anyOtherLineIsLeftToPicocliAndChangesNothing(String line) {
        String[] argv = line.isEmpty() ? new String[0] : line.split("\\|", -1);
        JsaltCommand cmd = fresh();

        assertThat(PlainArguments.read(argv, cmd)).as(line).isFalse();
        assertThat(parsed(cmd)).isEqualTo(parsed(fresh()));
    }

    /** The same run through main's path and through picocli's: the same exit code, stdout and stderr. */
    private Console.Run assertRunsAlike(Consumer<JsaltCommand> seams, String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream stderr = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            JsaltCommand cmd = new JsaltCommand(stdout);
            seams.accept(cmd);
            code = cmd.execute(stderr, argv);
        }
        Console.Run viaMain = new Console.Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        Console.Run viaPicocli = Console.run(stdout -> {
            JsaltCommand cmd = new JsaltCommand(stdout);
            seams.accept(cmd);
            return cmd;
        }, argv);

        assertThat(viaMain).isEqualTo(viaPicocli);
        return viaMain;
    }

    @Test
    void failuresPrintAndExitAsUnderPicocli() throws Exception {
        Path missing = tmp.resolve("missing");
        assertThat(assertRunsAlike(c -> { }, "-c", missing.toString(), "*", "test.ping").exitCode())
                .isEqualTo(ExitCode.CONFIG.code());
        assertThat(assertRunsAlike(c -> { }, "-c", missing.toString(), "--no-color", "--force-color", "*", "test.ping").stderr())
                .isEqualTo("ERROR: choose one of --no-color and --force-color\n");
        assertThat(assertRunsAlike(c -> { }, "-c", missing.toString(), "-t", "3", "*").exitCode()).isEqualTo(ExitCode.USAGE.code());
        Path conf = Files.createDirectories(tmp.resolve("conf"));
        Files.writeString(conf.resolve("master"), "root_dir: " + tmp + "\n");
        // an exception that is not the CLI's own: printed whole, exit 70
        Console.Run run = assertRunsAlike(c -> c.env = name -> {
            throw new IllegalStateException("no environment here");
        }, "-c", conf.toString(), "-a", "file", "*", "test.ping");
        assertThat(run.exitCode()).isEqualTo(ExitCode.SOFTWARE.code());
        assertThat(run.stderr()).isEqualTo("ERROR: java.lang.IllegalStateException: no environment here\n");
    }

    @Test
    void linesLeftToPicocliPrintItsHelpAndErrors() {
        // picocli prints the help to System.out, not to the command's stream: here only the exit code shows
        assertThat(assertRunsAlike(c -> { }, "--help").exitCode()).isZero();
        assertThat(assertRunsAlike(c -> { }, "--outt", "json", "*", "test.ping").stderr()).startsWith("jsalt: error: no such option: --outt");
        assertThat(assertRunsAlike(c -> { }, "-t", "x", "*", "test.ping").exitCode()).isEqualTo(ExitCode.USAGE.code());
        assertThat(assertRunsAlike(c -> { }, "-v", "-v", "*", "test.ping").exitCode()).isEqualTo(ExitCode.USAGE.code());
    }
}
