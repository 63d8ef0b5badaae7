package io.jsalt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.cli.call.CallCommand;
import io.jsalt.cli.jsalt.JsaltCommand;
import io.jsalt.cli.key.KeyCommand;
import io.jsalt.cli.run.RunCommand;
import io.jsalt.cli.testing.Console;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Salt's --versions-report on the tools Salt has it on, without a master, a config or a target. */
class VersionsReportOptionTest {
    @Test
    void everySaltToolPrintsTheReportAndNeedsNothingElse() {
        for (Console.Run run : new Console.Run[] {
            Console.run(JsaltCommand::new, "--versions-report"),
            Console.run(RunCommand::new, "--versions-report"),
            Console.run(CallCommand::new, "-c", "/nonexistent", "--versions-report"),
            Console.run(out -> new KeyCommand(out, new ByteArrayInputStream(new byte[0])), "--versions-report")}) {
            assertThat(run.exitCode()).as(run.toString()).isZero();
            assertThat(run.stdout()).as(run.toString()).startsWith("Salt Version:\n").contains(
                    "\nJava Version:\n", "\nDependency Versions:\n", "\nSystem Versions:\n", " jsalt: ", " picocli: ");
            assertThat(run.stderr()).isEmpty();
        }
    }

    @Test
    void dependenciesAreReadFromTheJarNamesAndAbsentOnesAreNotInstalledAsSaltSays() {
        String classPath = String.join(File.pathSeparator, "/opt/jsalt/lib/jeromq-0.6.0.jar", "/opt/jsalt/lib/picocli-4.7.7.jar",
                "/opt/jsalt/lib/jsalt-client-cli-0.1.0.jar", "/x/classes", "/opt/jsalt/lib/bcprov-jdk18on-1.86.jar");

        Map<String, String> deps = VersionsReportOption.dependencies(classPath);

        assertThat(deps).containsEntry("jeromq", "0.6.0").containsEntry("picocli", "4.7.7")
                .containsEntry("bcprov-jdk18on", "1.86").containsEntry("postgresql", "Not Installed")
                .doesNotContainKey("jsalt-client-cli");
        assertThat(deps.keySet()).first().isEqualTo("bcprov-jdk18on");
    }
}
