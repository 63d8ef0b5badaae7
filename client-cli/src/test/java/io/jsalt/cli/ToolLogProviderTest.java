package io.jsalt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.cli.testing.CapturedStderr;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;

/** A tool's logging without logback: warnings and errors to stderr, the rest dropped. */
class ToolLogProviderTest {
    /** client-cli/ is the working directory of its tests; bin/ is beside it. */
    private static final Path JSALT_ENV = Path.of("..", "bin", "jsalt-env");

    @RegisterExtension
    final CapturedStderr stderr = new CapturedStderr();

    @Test
    void warningsAndErrorsGoToStderrAndTheRestIsDropped() {
        ToolLogProvider provider = new ToolLogProvider();
        provider.initialize();
        Logger log = provider.getLoggerFactory().getLogger("io.jsalt.cli.jsalt.JobRun");

        log.debug("debug line");
        log.info("info line");
        log.warn("minion {} did not answer", "web1");
        log.error("gave up", new IllegalStateException("boom"));

        assertThat(stderr.text())
                .startsWith("WARN  JobRun: minion web1 did not answer\nERROR JobRun: gave up\njava.lang.IllegalStateException: boom\n")
                .doesNotContain("debug line", "info line");
    }

    @Test
    void theToolLaunchersChooseIt() throws IOException {
        assertThat(Files.readString(JSALT_ENV)).contains("-Dslf4j.provider=" + ToolLogProvider.class.getName() + " ");
    }
}
