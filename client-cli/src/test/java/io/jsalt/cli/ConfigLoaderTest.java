package io.jsalt.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.config.MasterConfig;
import io.jsalt.config.MinionConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
    @TempDir
    Path dir;

    @Test
    void aMissingFolderIsAConfigErrorThatNamesIt() {
        Path missing = dir.resolve("nowhere");

        assertThatThrownBy(() -> ConfigLoader.master(missing)).isInstanceOfSatisfying(CliException.class, e -> {
            assertThat(e.exitCode()).isEqualTo(ExitCode.CONFIG);
            assertThat(e.getMessage()).contains(missing.toString()).contains("-c");
        });
        assertThatThrownBy(() -> ConfigLoader.minion(missing)).isInstanceOfSatisfying(CliException.class,
                e -> assertThat(e.exitCode()).isEqualTo(ExitCode.CONFIG));
    }

    @Test
    void aFolderWithoutAFileGivesSaltsDefaults() {
        MasterConfig config = ConfigLoader.master(dir);

        assertThat(config.publishPort()).isEqualTo(4505);
        assertThat(config.retPort()).isEqualTo(4506);
        assertThat(config.configDir()).isEqualTo(dir.toAbsolutePath().normalize());
    }

    @Test
    void readsTheMasterFile() throws Exception {
        Files.writeString(dir.resolve("master"), "root_dir: " + dir + "\nret_port: 24506\n");

        MasterConfig config = ConfigLoader.master(dir);

        assertThat(config.retPort()).isEqualTo(24506);
        assertThat(config.pkiDir()).startsWithRaw(dir);
    }

    @Test
    void aBadMasterValueIsAConfigErrorNamingTheKey() throws Exception {
        Files.writeString(dir.resolve("master"), "worker_threads: lots\n");

        assertThatThrownBy(() -> ConfigLoader.master(dir)).isInstanceOfSatisfying(CliException.class, e -> {
            assertThat(e.exitCode()).isEqualTo(ExitCode.CONFIG);
            assertThat(e.getMessage()).contains("worker_threads");
        });
    }

    @Test
    void readsTheMinionFile() throws Exception {
        Files.writeString(dir.resolve("minion"), "root_dir: " + dir + "\nid: web-1\nmaster: 127.0.0.1\n");

        MinionConfig config = ConfigLoader.minion(dir);

        assertThat(config.id()).isEqualTo("web-1");
        assertThat(config.master()).isEqualTo("127.0.0.1");
    }

    @Test
    void aBadMinionIdIsAConfigErrorNamingTheKey() throws Exception {
        Files.writeString(dir.resolve("minion"), "id: ../etc\n");

        assertThatThrownBy(() -> ConfigLoader.minion(dir)).isInstanceOfSatisfying(CliException.class, e -> {
            assertThat(e.exitCode()).isEqualTo(ExitCode.CONFIG);
            assertThat(e.getMessage()).contains("id");
        });
    }
}
