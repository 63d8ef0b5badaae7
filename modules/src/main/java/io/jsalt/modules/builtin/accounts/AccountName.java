package io.jsalt.modules.builtin.accounts;

import io.jsalt.modules.api.CommandExecutionException;
import java.util.regex.Pattern;

/**
 * The one check of a user or group name before it reaches useradd, usermod, gpasswd and friends. It is the
 * portable subset shadow's own {@code is_valid_user_name} accepts, so a name never reads as an option
 * ({@code -o}, {@code --help}), a path or a list ({@code a,b}), and never holds a colon that would break
 * /etc/passwd.
 */
public final class AccountName {

    /** useradd's limit on Linux (shadow's USER_NAME_MAX_LENGTH). */
    static final int MAX_LENGTH = 32;
    // a letter, digit or underscore first; letters, digits, '_', '.', '-' after; a trailing '$' for Samba machines
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*\\$?");

    private AccountName() {
    }

    /** Returns {@code name} when it is a valid name; otherwise fails naming the kind ("user", "group"). */
    public static String require(String kind, String name) {
        if (name == null || name.isEmpty()) {
            throw new CommandExecutionException("Invalid " + kind + " name: it is empty");
        }
        if (name.startsWith("-")) {
            throw new CommandExecutionException("Invalid " + kind + " name '" + name + "': a name may not start with '-'");
        }
        if (name.length() > MAX_LENGTH || !NAME.matcher(name).matches() || name.chars().allMatch(Character::isDigit)) {
            throw new CommandExecutionException("Invalid " + kind + " name '" + name + "': a name starts with a letter, "
                    + "digit or '_', holds only letters, digits, '_', '.' and '-', is not all digits, and has at most "
                    + MAX_LENGTH + " characters");
        }
        return name;
    }
}
