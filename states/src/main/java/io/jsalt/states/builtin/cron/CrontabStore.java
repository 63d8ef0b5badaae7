package io.jsalt.states.builtin.cron;

import io.jsalt.modules.builtin.ExternalTool;
import io.jsalt.modules.builtin.accounts.AccountName;
import io.jsalt.modules.builtin.cmd.CommandOutcome;
import io.jsalt.states.StatesException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Where users' crontabs are read and written: through the {@code crontab} command when the host has one (as Salt's
 * cron module does: {@code crontab -u user -l}, {@code crontab -u user FILE}), else as files in a spool folder
 * ({@code <spool>/<user>}, mode 0600), the layout of Debian's cron (/var/spool/cron/crontabs). The user name is
 * checked as an account name first, so it can never name a path outside the spool.
 */
public final class CrontabStore {
    public static final Path DEBIAN_SPOOL = Path.of("/var/spool/cron/crontabs");
    private static final Duration TIMEOUT = Duration.ofMinutes(1);

    private final Path spool; // null: the crontab command

    private CrontabStore(Path spool) {
        this.spool = spool;
    }

    /** The crontab command if it is installed, else Debian's spool folder. */
    public static CrontabStore host() {
        boolean hasCommand = Files.isExecutable(Path.of("/usr/bin/crontab")) || Files.isExecutable(Path.of("/bin/crontab"));
        return new CrontabStore(hasCommand ? null : DEBIAN_SPOOL);
    }

    public static CrontabStore spool(Path folder) {
        return new CrontabStore(folder.toAbsolutePath().normalize());
    }

    public String read(String user) {
        AccountName.require("user", user);
        if (spool == null) {
            CommandOutcome out = ExternalTool.run(List.of("crontab", "-u", user, "-l"), Map.of(), TIMEOUT);
            // crontab -l fails with "no crontab for <user>" when there is none: an empty crontab, as for Salt
            return out.exitCode() == 0 ? out.stdout() : "";
        }
        Path file = spool.resolve(user);
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new StatesException("Unable to read the crontab of " + user + ": " + e);
        }
    }

    /** Writes the whole crontab; null when that worked, else the error (Salt's cron functions return it as text). */
    public String write(String user, String text) {
        AccountName.require("user", user);
        try {
            if (spool == null) {
                Path tmp = Files.createTempFile("jsalt-crontab", "");
                try {
                    Files.writeString(tmp, text, StandardCharsets.UTF_8);
                    CommandOutcome out = ExternalTool.run(List.of("crontab", "-u", user, tmp.toString()), Map.of(),
                            TIMEOUT);
                    return out.exitCode() == 0 ? null : ExternalTool.complaint(out);
                } finally {
                    Files.deleteIfExists(tmp);
                }
            }
            UserPrincipal owner;
            try {
                owner = spool.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(user);
            } catch (UserPrincipalNotFoundException e) {
                return "user '" + user + "' unknown"; // crontab's own complaint for such a user
            }
            Files.createDirectories(spool);
            Path tmp = Files.createTempFile(spool, "." + user, ".new");
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.setOwner(tmp, owner); // cron reads a user's crontab only when that user owns it
            Files.move(tmp, spool.resolve(user), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return null;
        } catch (IOException e) {
            return e.toString();
        }
    }
}
