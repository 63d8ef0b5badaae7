package io.jsalt.cli.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.cli.ToolRunner;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daemons' start-up line read without picocli gives what picocli gives, and anything else is left to picocli. */
class DaemonOptionsTest {
    private static final Path PID = Path.of("/run/from-config.pid");

    private static DaemonOptions picocli(String... args) {
        MinionDaemon daemon = new MinionDaemon();
        ToolRunner.commandLine(daemon).parseArgs(args);
        return daemon.options;
    }

    private static List<Object> observed(DaemonOptions o) {
        return List.of(o.configDir(), String.valueOf(o.logLevel()), o.detach(), o.detachedChild(), o.pidFile(PID), o.childArgs(PID));
    }

    @Test
    void plainLinesReadAsPicocliReadsThem() {
        List<String[]> lines = List.of(
                new String[] {},
                new String[] {"-c", "/etc/jsalt-test"},
                new String[] {"--config-dir", "conf/../etc"},
                new String[] {"--config-dir=/srv/conf", "-l", "debug"},
                new String[] {"-d", "-c", "/etc/x", "--log-level=warning", "--pid-file", "/run/m.pid"},
                new String[] {"--daemon", "--pid-file=relative.pid"},
                new String[] {"-c", "/tmp/c", "--pid-file", "/run/p.pid", "--detached-child", "-l", "info"},
                new String[] {"-d", "--detached-child"},
                new String[] {"-c", ""});
        for (String[] line : lines) {
            Optional<DaemonOptions> plain = DaemonOptions.plain(line);
            assertThat(plain).as(String.join(" ", line)).isPresent();
            assertThat(observed(plain.get())).as(String.join(" ", line)).isEqualTo(observed(picocli(line)));
        }
    }

    @Test
    void aDaemonStartedFromAPlainLineFailsAsThroughPicocli(@TempDir Path tmp) {
        String[] line = {"-c", tmp.resolve("no-such-folder").toString()};
        ByteArrayOutputStream viaPlain = new ByteArrayOutputStream();
        MinionDaemon daemon = new MinionDaemon();
        int plainCode = DaemonOptions.run(daemon, o -> daemon.options = o, new PrintStream(viaPlain, true), line);
        ByteArrayOutputStream viaPicocli = new ByteArrayOutputStream();
        int picocliCode = ToolRunner.run(new MinionDaemon(), new PrintStream(viaPicocli, true), line);
        assertThat(daemon.options).as("read without picocli").isNotNull();
        assertThat(plainCode).isEqualTo(picocliCode).isNotZero();
        assertThat(viaPlain.toString()).isEqualTo(viaPicocli.toString()).startsWith("ERROR: ");
    }

    @Test
    void helpIsStillPicocli() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MinionDaemon daemon = new MinionDaemon();
        int code = DaemonOptions.run(daemon, o -> daemon.options = o, new PrintStream(out, true), "--outt");
        assertThat(code).isEqualTo(64);
        assertThat(out.toString()).contains("no such option: --outt");
    }

    @Test
    void everythingElseIsLeftToPicocli() {
        List<String[]> lines = List.of(
                new String[] {"--help"},
                new String[] {"-h"},
                new String[] {"-V"},
                new String[] {"--version"},
                new String[] {"-c"},
                new String[] {"-c", "/a", "-c", "/b"},
                new String[] {"-c", "/a", "--config-dir=/b"},
                new String[] {"-d", "--daemon"},
                new String[] {"-c", "-d"},
                new String[] {"-l", "--pid-file"},
                new String[] {"-c/etc/jsalt"},
                new String[] {"-c=/etc/jsalt"},
                new String[] {"-dc", "/etc/jsalt"},
                new String[] {"--daemon=true"},
                new String[] {"--outt", "x"},
                new String[] {"stray"},
                new String[] {"-c", "/a\0b"});
        for (String[] line : lines) {
            assertThat(DaemonOptions.plain(line)).as(String.join(" ", line)).isEmpty();
        }
    }
}
