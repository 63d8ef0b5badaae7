package io.jsalt.states.builtin;

import io.jsalt.modules.builtin.ExternalTool;
import io.jsalt.modules.builtin.GroupModule;
import io.jsalt.modules.builtin.UserModule;
import io.jsalt.modules.builtin.accounts.AccountDatabase;
import io.jsalt.modules.builtin.accounts.AccountRoot;
import io.jsalt.modules.builtin.accounts.GroupEntry;
import io.jsalt.modules.builtin.accounts.ShadowCommand;
import io.jsalt.modules.builtin.cmd.CommandOutcome;
import io.jsalt.states.StatesException;
import io.jsalt.states.run.StateCall;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the user and group states read and change accounts: the host, or a root folder whose etc/passwd and
 * etc/group the shadow tools change with {@code -R} (tests, images). Reads are local; changes go through the
 * minion's {@code user.*}/{@code group.*} execution functions with {@code root=}, and through {@code usermod}/
 * {@code groupmod} for what those functions do not offer (uid, gid, GECOS).
 */
final class AccountStore {
    private static final Logger LOG = LoggerFactory.getLogger(AccountStore.class);
    private static final Duration TIMEOUT = Duration.ofMinutes(1);

    private final Path root; // null: the host

    private AccountStore(Path root) {
        this.root = root;
    }

    static AccountStore host() {
        return new AccountStore(null);
    }

    /** Accounts under {@code root} (an existing folder with etc/passwd, etc/group, etc/shadow, etc/gshadow). */
    static AccountStore under(Path root) {
        return new AccountStore(root.toAbsolutePath().normalize());
    }

    AccountDatabase database() {
        return root == null ? AccountDatabase.system()
                : new AccountDatabase(root.resolve("etc/passwd"), root.resolve("etc/group"));
    }

    /** Salt's {@code user.info}, or empty when there is no such user. */
    Optional<Map<String, Object>> user(String name) {
        AccountDatabase db = database();
        return db.user(name).isEmpty() ? Optional.empty() : Optional.of(new UserModule(db).info(name));
    }

    /** Salt's {@code group.info}, or empty when there is no such group. */
    Optional<Map<String, Object>> group(String name) {
        AccountDatabase db = database();
        return db.group(name).isEmpty() ? Optional.empty() : Optional.of(new GroupModule(db).info(name));
    }

    /** Salt's {@code file.group_to_gid}: a name's gid, a number as is, or null when there is no such group. */
    Long gidOf(Object group) {
        String text = String.valueOf(group);
        if (text.matches("\\d+")) {
            return Long.parseLong(text);
        }
        return database().group(text).map(GroupEntry::gid).orElse(null);
    }

    /** Salt's {@code file.gid_to_group}: the group's name, or the number as text when no group has it. */
    String groupName(long gid) {
        return database().groups().stream().filter(g -> g.gid() == gid).map(GroupEntry::name).findFirst()
                .orElse(String.valueOf(gid));
    }

    /** A path of the accounts' world (a home folder) on this machine. */
    Path hostPath(String path) {
        if (root == null) {
            return Path.of(path);
        }
        Path inside = root.resolve(path.replaceFirst("^/+", "")).normalize();
        if (!inside.startsWith(root)) {
            throw new StatesException("Path " + path + " leaves the accounts' root " + root);
        }
        return inside;
    }

    /** Calls an execution function with {@code root=} when the accounts are not the host's. */
    Object call(StateCall call, String fun, List<Object> args, Map<String, Object> kwargs) {
        Map<String, Object> withRoot = new LinkedHashMap<>(kwargs);
        if (root != null) {
            withRoot.put("root", root.toString());
        }
        return call.salt().call(fun, args, withRoot);
    }

    /**
     * Runs usermod or groupmod with one option ({@code allowDuplicate} adds {@code -o}); false when the tool refused,
     * as Salt's user.chuid or group.chgid answer (the state then finds the value unchanged and says so).
     */
    boolean modify(String tool, String kind, String name, String option, String value, boolean allowDuplicate) {
        ShadowCommand command = ShadowCommand.of(tool).flag("-o", allowDuplicate).option(option, value)
                .root(AccountRoot.of(root == null ? null : root.toString())).account(kind, name);
        CommandOutcome outcome = ExternalTool.run(command.argv(), Map.of(), TIMEOUT);
        if (outcome.exitCode() != 0) {
            LOG.info("{} {} for {}: {}", tool, option, name, ExternalTool.complaint(outcome));
        }
        return outcome.exitCode() == 0;
    }
}
