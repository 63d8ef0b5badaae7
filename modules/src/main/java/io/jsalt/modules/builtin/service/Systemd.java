package io.jsalt.modules.builtin.service;

import io.jsalt.modules.api.CommandExecutionException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether this host was booted with systemd, tested the way systemd's own sd_booted() and Salt's
 * {@code salt.utils.systemd.booted} test it: the directory {@code /run/systemd/system} exists. In a
 * container whose PID 1 is not systemd it does not, and systemctl could not do anything anyway.
 */
public final class Systemd {

    /** Where a running systemd leaves its mark. */
    public static final Path DEFAULT_MARKER = Path.of("/run/systemd/system");

    private final Path marker;

    public Systemd(Path marker) {
        this.marker = marker;
    }

    public boolean booted() {
        return Files.isDirectory(marker);
    }

    /** Fails with a clear error naming the function when systemd is not running. */
    public void require(String function) {
        if (!booted()) {
            throw new CommandExecutionException("systemd is not running on this host: " + function
                    + " needs systemd (" + marker + " is missing)");
        }
    }
}
