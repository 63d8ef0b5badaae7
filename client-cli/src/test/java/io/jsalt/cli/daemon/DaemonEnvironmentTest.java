package io.jsalt.cli.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ExitCode;
import io.jsalt.config.MasterConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DaemonEnvironmentTest {
    @TempDir
    Path root;

    private DaemonProfile profile() {
        return DaemonProfile.of(MasterConfig.builder(root).build());
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void createsTheMissingFoldersWithPrivateModes() throws Exception {
        DaemonProfile profile = profile();

        DaemonEnvironment.verify(profile);

        assertThat(mode(profile.pkiDir())).isEqualTo("rwx------");
        assertThat(mode(profile.cachedir())).isEqualTo("rwx------");
        assertThat(mode(profile.sockDir())).isEqualTo("rwx------");
        assertThat(mode(profile.logFile().getParent())).isEqualTo("rwxr-x---");
    }

    @Test
    void refusesAPkiDirThatOthersCanWrite() throws Exception {
        DaemonProfile profile = profile();
        Files.createDirectories(profile.pkiDir());
        Files.setPosixFilePermissions(profile.pkiDir(), PosixFilePermissions.fromString("rwxrwxrwx"));

        assertThatThrownBy(() -> DaemonEnvironment.verify(profile))
                .isInstanceOfSatisfying(CliException.class, e -> assertThat(e.exitCode()).isEqualTo(ExitCode.CONFIG))
                .hasMessageContaining("pki_dir " + profile.pkiDir() + " is writable by group or others");
    }

    @Test
    void refusesAPkiDirThatTheGroupCanWrite() throws Exception {
        DaemonProfile profile = profile();
        Files.createDirectories(profile.pkiDir());
        Files.setPosixFilePermissions(profile.pkiDir(), PosixFilePermissions.fromString("rwxrwx---"));

        assertThatThrownBy(() -> DaemonEnvironment.verify(profile)).isInstanceOf(CliException.class);
    }

    @Test
    void leavesTheModeOfAnExistingSafeFolderAlone() throws Exception {
        DaemonProfile profile = profile();
        Files.createDirectories(profile.cachedir());
        Files.setPosixFilePermissions(profile.cachedir(), PosixFilePermissions.fromString("rwxr-xr-x"));

        DaemonEnvironment.verify(profile);

        assertThat(mode(profile.cachedir())).isEqualTo("rwxr-xr-x");
    }
}
