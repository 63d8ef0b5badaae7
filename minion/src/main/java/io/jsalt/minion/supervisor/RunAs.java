package io.jsalt.minion.supervisor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Supervisor's {@code user=}: the user a program runs as when it is not the minion's own. A root minion starts
 * the command through {@code setpriv} (util-linux, Essential on Debian), which sets the real and effective uid and
 * gid and the user's groups, then execs the command: the process supervised is the program itself, with its own
 * pid and command line. As Supervisor does, the environment is not changed (no HOME or USER of the user's).
 *
 * @param name the user's name, as the definition gives it
 */
record RunAs(String name, long uid, long gid) {
    static final Path SETPRIV = Path.of("/usr/bin/setpriv");
    private static final Path GETENT = Path.of("/usr/bin/getent");

    /** The arguments that run {@code argv} as this user. */
    List<String> wrap(List<String> argv) {
        List<String> out = new java.util.ArrayList<>(List.of(SETPRIV.toString(), "--reuid=" + uid, "--regid=" + gid,
                "--init-groups", "--"));
        out.addAll(argv);
        return out;
    }

    /** The user of that name on this host (NSS: local files, LDAP, ...), from {@code getent passwd}. */
    static Optional<RunAs> lookup(String name) {
        if (!name.matches("[A-Za-z_][A-Za-z0-9_.-]{0,63}") || !Files.isExecutable(GETENT)) {
            return Optional.empty();
        }
        try {
            Process p = new ProcessBuilder(GETENT.toString(), "passwd", name).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            String line = new String(p.getInputStream().readNBytes(4096), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                return Optional.empty();
            }
            String[] f = line.split(":");
            return f.length >= 4 && f[0].equals(name)
                    ? Optional.of(new RunAs(name, Long.parseLong(f[2]), Long.parseLong(f[3]))) : Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
