package io.jsalt.cli.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.config.MinionConfig;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigChangesTest {
    @TempDir
    Path root;

    @Test
    void namesTheChangedSettingsAsConfigKeys() {
        MinionConfig was = MinionConfig.builder(root).id("m1").build();
        MinionConfig is = MinionConfig.builder(root).id("m1").set("master_port", 14506).set("log_level", "debug").build();

        assertThat(ConfigChanges.between(was, is, Set.of())).contains("master_port", "log_level");
        // master_port is also the port of every master written without one: the master list changed too
        assertThat(ConfigChanges.between(was, is, Set.of("logLevel", "logFile", "daemon"))).containsExactly("master_port", "master");
        assertThat(ConfigChanges.between(was, was, Set.of())).isEmpty();
    }

    @Test
    void turnsComponentNamesIntoSaltKeys() {
        assertThat(ConfigChanges.keyName("masterFinger")).isEqualTo("master_finger");
        assertThat(ConfigChanges.keyName("cachedir")).isEqualTo("cachedir");
        assertThat(ConfigChanges.keyName("acceptanceWaitTimeMax")).isEqualTo("acceptance_wait_time_max");
        assertThat(ConfigChanges.keyName("masters")).isEqualTo("master");
    }
}
