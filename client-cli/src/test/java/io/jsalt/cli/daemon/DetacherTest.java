package io.jsalt.cli.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DetacherTest {
    @Test
    void theChildIsThisJvmInANewSessionUnderUmask077() {
        List<String> cmd = Detacher.childCommand("io.jsalt.cli.daemon.MasterDaemon", List.of("-c", "/etc/jsalt"));

        int sh = cmd.indexOf("/bin/sh");
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            assertThat(cmd.get(0)).isEqualTo("/usr/bin/setsid");
        }
        assertThat(cmd.subList(sh, sh + 4)).containsExactly("/bin/sh", "-c", "umask 077; exec \"$@\"", "sh");
        assertThat(cmd.get(sh + 4)).isEqualTo(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        int cp = cmd.indexOf("-cp");
        assertThat(cmd.get(cp + 1)).isEqualTo(System.getProperty("java.class.path"));
        assertThat(cmd.subList(cp + 2, cmd.size())).containsExactly("io.jsalt.cli.daemon.MasterDaemon", "-c", "/etc/jsalt");
    }

    @Test
    void theChildGetsTheOptionsWithoutDashDAndWithAbsolutePaths() {
        DaemonOptions options = new DaemonOptions();
        new CommandLine(new Object() {
            @CommandLine.Mixin
            DaemonOptions o = options;
        }).parseArgs("-c", "conf/master", "-d", "-l", "debug");

        Path pid = options.pidFile(Path.of("/var/run/jsalt/jsalt-master.pid"));
        List<String> args = options.childArgs(pid);

        assertThat(options.detach()).isTrue();
        assertThat(args).doesNotContain("-d", "--daemon")
                .containsExactly("-c", Path.of("conf/master").toAbsolutePath().toString(), "-l", "debug",
                        "--pid-file", "/var/run/jsalt/jsalt-master.pid", "--detached-child");
    }
}
