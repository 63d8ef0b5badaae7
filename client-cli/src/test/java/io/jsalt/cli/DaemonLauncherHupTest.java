package io.jsalt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * bin/jsalt-env starts the daemons with SIGHUP's default disposition even under nohup, which would otherwise
 * leave the JVM without a HUP handler (no reload on `kill -HUP`, silently). Run by bash as the launchers run it.
 */
class DaemonLauncherHupTest {
    /** client-cli/ is the working directory of its tests; bin/ is beside it. */
    private static final Path JSALT_ENV = Path.of("..", "bin", "jsalt-env").toAbsolutePath();

    private static String sigIgnUnderNohup(String command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("nohup", "bash", "-c", "source \"$1\" && " + command, "bash", JSALT_ENV.toString());
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out.lines().filter(l -> l.startsWith("SigIgn:")).findFirst().orElseThrow();
    }

    @Test
    void underNohupACommandRunAsADaemonIsHandedHupWithItsDefault() throws Exception {
        // the control: nohup really leaves HUP (bit 0 of the mask) ignored for what it runs
        String plain = sigIgnUnderNohup("grep SigIgn /proc/self/status");
        assertThat(Long.parseLong(plain.substring(7).trim(), 16) & 1).as(plain).isEqualTo(1);

        String launched = sigIgnUnderNohup("jsalt_with_default_hup grep SigIgn /proc/self/status");

        assertThat(Long.parseLong(launched.substring(7).trim(), 16) & 1).as(launched).isZero();
    }
}
