package io.jsalt.modules.builtin.accounts;

import io.jsalt.modules.api.CommandExecutionException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Salt's {@code root} argument of the user and group functions: the folder whose etc/passwd and etc/group are
 * changed (shadow's {@code -R}, a chroot), or the host itself when none is given.
 */
public final class AccountRoot {

    private static final AccountRoot HOST = new AccountRoot(null);

    private final Path path;

    private AccountRoot(Path path) {
        this.path = path;
    }

    /** The host, for {@code root=None}; else an existing absolute folder. */
    public static AccountRoot of(String root) {
        if (root == null || root.isEmpty() || root.equals("/")) {
            return HOST;
        }
        if (root.indexOf('\0') >= 0 || !root.startsWith("/")) {
            throw new CommandExecutionException("Invalid root '" + root + "': an absolute path is expected");
        }
        Path path = Path.of(root).normalize();
        if (!Files.isDirectory(path)) {
            throw new CommandExecutionException("Invalid root '" + root + "': no such directory");
        }
        return new AccountRoot(path);
    }

    public boolean isHost() {
        return path == null;
    }

    /** The folder; only when not {@link #isHost()}. */
    public Path path() {
        return path;
    }

    /** The accounts to read: the host's {@code hostAccounts}, or those under the root. */
    public AccountDatabase accounts(AccountDatabase hostAccounts) {
        return isHost() ? hostAccounts : new AccountDatabase(path.resolve("etc/passwd"), path.resolve("etc/group"));
    }
}
