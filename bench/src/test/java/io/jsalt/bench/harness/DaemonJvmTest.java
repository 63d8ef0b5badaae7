package io.jsalt.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class DaemonJvmTest {
    /** bench/ is the working directory of its tests; bin/ is beside it. */
    private static final Path JSALT_ENV = Path.of("..", "bin", "jsalt-env");

    @Test
    void theBenchmarkStartsTheDaemonsWithTheLaunchersDefaults() throws IOException {
        String env = Files.readString(JSALT_ENV);

        assertThat(defaults(env, "JSALT_MASTER_JVM_DEFAULTS")).isEqualTo(DaemonJvm.MASTER);
        assertThat(defaults(env, "JSALT_MINION_JVM_DEFAULTS")).isEqualTo(DaemonJvm.MINION);
    }

    private static List<String> defaults(String env, String variable) {
        Matcher m = Pattern.compile("(?m)^" + variable + "=\"([^\"]*)\"$").matcher(env);
        assertThat(m.find()).as(variable + " in " + JSALT_ENV).isTrue();
        return Arrays.asList(m.group(1).split(" "));
    }
}
