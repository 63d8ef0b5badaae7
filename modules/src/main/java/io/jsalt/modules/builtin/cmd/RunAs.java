package io.jsalt.modules.builtin.cmd;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.accounts.AccountDatabase;
import io.jsalt.modules.builtin.accounts.PasswdEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Salt's {@code runas}: runs a command as another user. As root the command goes through
 * {@code runuser -u <user> --} (no password, no PAM session prompt); a minion that is not root can only run
 * commands as itself and says so instead of asking for a password. runuser runs as root, so it starts from a
 * minimal environment; the caller's {@code env} reaches only the user's command, through {@code env(1)} after
 * runuser's {@code --}. Variables that steer the dynamic loader are refused with runas altogether.
 */
public final class RunAs {

    private static final List<Path> RUNUSER_FALLBACKS = List.of(Path.of("/usr/sbin/runuser"), Path.of("/sbin/runuser"));
    private static final String ENV = "/usr/bin/env";
    private static final String MINIMAL_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
    /** glibc's list of variables it drops for setuid programs (besides LD_*), and GLIBC_TUNABLES. */
    private static final Set<String> LOADER_VARIABLES = Set.of("GCONV_PATH", "GETCONF_DIR", "GLIBC_TUNABLES",
            "HOSTALIASES", "LOCALDOMAIN", "LOCPATH", "MALLOC_TRACE", "NIS_PATH", "NLSPATH", "RESOLV_HOST_CONF",
            "RES_OPTIONS", "TZDIR");

    /**
     * How to start a command.
     *
     * @param argv       the program and its arguments, wrapped for runas when needed
     * @param env        the variables to set
     * @param inheritEnv whether they go on top of the minion's environment (false: they are all it gets)
     */
    public record Launch(List<String> argv, Map<String, String> env, boolean inheritEnv) {
        public Launch {
            argv = List.copyOf(argv);
            env = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(env));
        }
    }

    private final AccountDatabase accounts;
    private final long currentUid;
    private final String currentUser;

    public RunAs(AccountDatabase accounts, long currentUid, String currentUser) {
        this.accounts = accounts;
        this.currentUid = currentUid;
        this.currentUser = currentUser;
    }

    /** The users of /etc/passwd and the identity this JVM runs with. */
    public static RunAs system() {
        AccountDatabase accounts = AccountDatabase.system();
        long uid = processUid();
        return new RunAs(accounts, uid, accounts.userName(uid));
    }

    /** The passwd entry of {@code user}, or an error naming it. */
    public PasswdEntry user(String user) {
        return accounts.user(user).orElseThrow(() -> new CommandExecutionException("User '" + user
                + "' is not available"));
    }

    /**
     * The argv that runs {@code argv} as {@code user}: unchanged when {@code user} is null or the minion's own
     * user, wrapped in runuser when the minion is root.
     *
     * @throws CommandExecutionException when the user does not exist, or the minion cannot switch to it
     */
    public List<String> wrap(List<String> argv, String user) {
        if (user == null || user.isEmpty()) {
            return argv;
        }
        PasswdEntry entry = user(user);
        if (entry.uid() == currentUid) {
            return argv;
        }
        if (currentUid != 0) {
            throw new CommandExecutionException("runas=" + user + " needs root: this minion runs as '" + currentUser
                    + "' and can only run commands as itself");
        }
        List<String> wrapped = new ArrayList<>(List.of(runuser().toString(), "-u", user, "--"));
        wrapped.addAll(argv);
        return wrapped;
    }

    /**
     * How to run {@code argv} with the variables {@code env} as {@code user}. Without a user switch the
     * variables go on top of the minion's environment; with runuser, runuser gets only a minimal PATH and the
     * variables are set for the user's command by {@code /usr/bin/env K=V ... argv} (a null value: {@code -u K}).
     *
     * @throws CommandExecutionException when the user cannot be switched to, or env holds a loader variable
     */
    public Launch launch(List<String> argv, Map<String, String> env, String user) {
        if (user == null || user.isEmpty()) {
            return new Launch(argv, env, true);
        }
        refuseLoaderVariables(env, user);
        List<String> wrapped = wrap(argv, user);
        if (wrapped.size() == argv.size()) {
            return new Launch(argv, env, true); // the minion's own user: nothing switches
        }
        if (argv.get(0).contains("=")) {
            // env(1) would take it for one more variable
            throw new CommandExecutionException("runas cannot run a program whose name contains '=': " + argv.get(0));
        }
        List<String> full = new ArrayList<>(wrapped.subList(0, wrapped.size() - argv.size()));
        full.add(ENV);
        env.forEach((name, value) -> {
            if (value == null) {
                full.add("-u");
                full.add(name);
            }
        });
        env.forEach((name, value) -> {
            if (value != null) {
                full.add(name + "=" + value);
            }
        });
        full.addAll(argv);
        return new Launch(full, Map.of("PATH", MINIMAL_PATH), false);
    }

    private static void refuseLoaderVariables(Map<String, String> env, String user) {
        for (String name : env.keySet()) {
            if (name.isEmpty() || name.contains("=")) {
                throw new CommandExecutionException("env holds an invalid variable name '" + name + "'");
            }
            if (name.startsWith("LD_") || LOADER_VARIABLES.contains(name)) {
                throw new CommandExecutionException("env may not set " + name + " with runas=" + user
                        + ": it steers the dynamic loader");
            }
        }
    }

    /** Salt runs a runas command in that user's home; a user without one (nobody) gets '/'. */
    public Path home(String user) {
        Path home = Path.of(user(user).home());
        return home.isAbsolute() && Files.isDirectory(home) ? home : Path.of("/");
    }

    private static Path runuser() {
        Optional<Path> onPath = ExecutablePath.find("runuser", System.getenv("PATH"));
        if (onPath.isPresent()) {
            return onPath.get();
        }
        return RUNUSER_FALLBACKS.stream().filter(Files::isExecutable).findFirst()
                .orElseThrow(() -> new CommandExecutionException("runas needs runuser(1) (util-linux), which is not "
                        + "installed on this minion"));
    }

    private static long processUid() {
        try {
            return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).longValue();
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            // without /proc, assume the least: a user that cannot switch identities
            return -1;
        }
    }
}
