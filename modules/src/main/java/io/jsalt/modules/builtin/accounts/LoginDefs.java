package io.jsalt.modules.builtin.accounts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** The one setting of /etc/login.defs the user module reads: whether useradd makes a group per user. */
public final class LoginDefs {

    private final Path file;

    private LoginDefs(Path file) {
        this.file = file;
    }

    /** The login.defs of the host, or of the folder {@code root} names. */
    public static LoginDefs under(AccountRoot root) {
        return new LoginDefs(root.isHost() ? Path.of("/etc/login.defs") : root.path().resolve("etc/login.defs"));
    }

    /** {@code USERGROUPS_ENAB yes}; a missing or unreadable file counts as no, as Salt's reading does. */
    public boolean userGroupsEnabled() {
        try {
            for (String line : Files.readAllLines(file)) {
                String[] words = line.strip().split("\\s+");
                if (words.length >= 2 && words[0].equals("USERGROUPS_ENAB")) {
                    return words[1].toLowerCase(Locale.ROOT).equals("yes");
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }
}
