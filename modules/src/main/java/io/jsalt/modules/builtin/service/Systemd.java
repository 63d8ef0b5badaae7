package io.jsalt.modules.builtin.service;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether this host was booted with systemd, tested the way systemd's own sd_booted() and Salt's
 * {@code salt.utils.systemd.booted} test it: the directory {@code /run/systemd/system} exists. In a
 * container whose PID 1 is not systemd it does not, systemctl could not do anything, and the {@code service}
 * module uses the SysV init scripts instead.
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
}
