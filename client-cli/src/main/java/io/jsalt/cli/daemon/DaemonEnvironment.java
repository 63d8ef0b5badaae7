package io.jsalt.cli.daemon;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ExitCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Salt's verify_env: before a daemon starts, its folders exist with safe modes (pki, cache and socket
 * folders 0700, the log folder 0750 when this creates them), and a pki folder that group or others may
 * write is refused: whoever can write it can plant an accepted minion key or replace the master's key.
 */
final class DaemonEnvironment {
    private static final String PRIVATE = "rwx------";
    private static final String LOGS = "rwxr-x---";

    private DaemonEnvironment() {}

    /** @throws CliException with {@link ExitCode#CONFIG} naming the folder and what is wrong */
    static void verify(DaemonProfile profile) {
        ensureFolder(profile.pkiDir(), "pki_dir", PRIVATE);
        ensureFolder(profile.cachedir(), "cachedir", PRIVATE);
        ensureFolder(profile.sockDir(), "sock_dir", PRIVATE);
        Path logFolder = profile.logFile().toAbsolutePath().getParent();
        if (logFolder != null) {
            ensureFolder(logFolder, "the folder of log_file", LOGS);
        }
        refuseWritableByOthers(profile.pkiDir());
    }

    private static void ensureFolder(Path dir, String key, String mode) {
        if (Files.isDirectory(dir)) {
            return;
        }
        try {
            Files.createDirectories(dir);
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString(mode));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: nothing to set
        } catch (IOException e) {
            throw new CliException(ExitCode.CONFIG, "cannot create " + key + " " + dir + ": " + e);
        }
    }

    private static void refuseWritableByOthers(Path pki) {
        Set<PosixFilePermission> perms;
        try {
            perms = Files.getPosixFilePermissions(pki);
        } catch (UnsupportedOperationException e) {
            return;
        } catch (IOException e) {
            throw new CliException(ExitCode.CONFIG, "cannot read the mode of pki_dir " + pki + ": " + e);
        }
        if (perms.contains(PosixFilePermission.GROUP_WRITE) || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
            throw new CliException(ExitCode.CONFIG, "pki_dir " + pki + " is writable by group or others (mode "
                    + PosixFilePermissions.toString(perms) + "): refusing to start; run chmod 700 " + pki);
        }
    }
}
