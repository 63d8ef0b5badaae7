package io.jsalt.modules.builtin;

import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.builtin.accounts.AccountDatabase;
import io.jsalt.modules.builtin.accounts.AccountName;
import io.jsalt.modules.builtin.accounts.AccountRoot;
import io.jsalt.modules.builtin.accounts.LoginDefs;
import io.jsalt.modules.builtin.accounts.PasswdEntry;
import io.jsalt.modules.builtin.accounts.ShadowCommand;
import io.jsalt.modules.builtin.cmd.CommandOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writing half of Salt's {@code user} module (useradd.py): add, delete and change local users through
 * shadow's useradd, userdel and usermod. Signatures and return values are Salt 3006's: True or False for what
 * the tool did (the tool's complaint goes to the minion's log), and an error for a name that is not a valid
 * account name or a user that does not exist.
 */
@SaltModule(name = "user")
public final class UserWriteModule implements ExecutionModule {

    private static final Logger LOG = LoggerFactory.getLogger(UserWriteModule.class);
    // useradd and friends wait for the account files' lock; a minute is far beyond any healthy wait
    static final Duration TIMEOUT = Duration.ofMinutes(1);

    private final AccountDatabase hostAccounts;

    public UserWriteModule() {
        this(AccountDatabase.system());
    }

    /** For tests: reads the host's users from other files (the tools still change the real ones). */
    public UserWriteModule(AccountDatabase hostAccounts) {
        this.hostAccounts = hostAccounts;
    }

    @SaltFunction(doc = "Add a user to the minion. Returns True when useradd created it (then groups and the GECOS "
            + "fields are set as Salt does), False when useradd refused (e.g. the user exists).\n\n"
            + "CLI Example: salt '*' user.add name <uid> <gid> <groups> <home> <shell>")
    public boolean add(@Arg("name") String name,
                       @Arg(value = "uid", defaultValue = Arg.NULL) String uid,
                       @Arg(value = "gid", defaultValue = Arg.NULL) String gid,
                       @Arg(value = "groups", defaultValue = Arg.NULL) List<Object> groups,
                       @Arg(value = "home", defaultValue = Arg.NULL) String home,
                       @Arg(value = "shell", defaultValue = Arg.NULL) String shell,
                       @Arg(value = "unique", defaultValue = "true") boolean unique,
                       @Arg(value = "system", defaultValue = "false") boolean system,
                       @Arg(value = "fullname", defaultValue = "") String fullname,
                       @Arg(value = "roomnumber", defaultValue = "") String roomnumber,
                       @Arg(value = "workphone", defaultValue = "") String workphone,
                       @Arg(value = "homephone", defaultValue = "") String homephone,
                       @Arg(value = "other", defaultValue = "") String other,
                       @Arg(value = "createhome", defaultValue = "true") boolean createhome,
                       @Arg(value = "loginclass", defaultValue = Arg.NULL) String loginclass,
                       @Arg(value = "nologinit", defaultValue = "false") boolean nologinit,
                       @Arg(value = "root", defaultValue = Arg.NULL) String root,
                       @Arg(value = "usergroup", defaultValue = Arg.NULL) Boolean usergroup) {
        AccountName.require("user", name);
        List<String> groupNames = groups == null ? null : groupNames(groups);
        Gecos gecos = new Gecos(fullname, roomnumber, workphone, homephone, other); // checked before anything runs
        AccountRoot at = AccountRoot.of(root);
        // loginclass is OpenBSD's; Linux has no login classes, as Salt ignores it there
        ShadowCommand cmd = ShadowCommand.of("useradd").option("-s", shell).option("-u", uid);
        if (gid != null && !gid.isEmpty()) {
            cmd.option("-g", gid);
        } else if (Boolean.TRUE.equals(usergroup)) {
            cmd.flag("-U", true);
        } else if (groupNames != null && groupNames.contains(name) && LoginDefs.under(at).userGroupsEnabled()) {
            // as Salt: a group named like the user exists already and useradd would refuse to make it
            cmd.option("-g", name);
        }
        cmd.flag("-N", Boolean.FALSE.equals(usergroup))
                .flag(createhome ? "-m" : "-M", true)
                .flag("-l", nologinit)
                .option("-d", home)
                .flag("-o", !unique)
                .flag("-r", system)
                .root(at)
                .account("user", name);
        CommandOutcome outcome = run(cmd);
        if (outcome.exitCode() != 0) {
            LOG.info("user.add {}: useradd refused: {}", name, ExternalTool.complaint(outcome));
            return false;
        }
        // as Salt: the user exists now, so the result is True whatever the follow-ups below do
        if (groupNames != null && !groupNames.isEmpty()) {
            changeGroups(name, groupNames, false, at);
        }
        if (!gecos.isEmpty()) {
            run(ShadowCommand.of("usermod").root(at).option("-c", gecos.field()).account("user", name));
        }
        return true;
    }

    @SaltFunction(doc = "Remove a user from the minion; remove=True also removes its home and mail spool, force=True "
            + "removes it even while logged in. Returns True when the user is gone.\n\n"
            + "CLI Example: salt '*' user.delete name remove=True force=True")
    public boolean delete(@Arg("name") String name, @Arg(value = "remove", defaultValue = "false") boolean remove,
                          @Arg(value = "force", defaultValue = "false") boolean force,
                          @Arg(value = "root", defaultValue = Arg.NULL) String root) {
        AccountRoot at = AccountRoot.of(root);
        CommandOutcome outcome = run(ShadowCommand.of("userdel").flag("-r", remove).flag("-f", force).root(at)
                .account("user", name));
        if (outcome.exitCode() == 0) {
            return true;
        }
        // Debian's userdel exits 12 when the mail spool is missing, after removing the user (Salt's known bug)
        if (outcome.exitCode() == 12 && at.accounts(hostAccounts).user(name).isEmpty()) {
            return true;
        }
        LOG.info("user.delete {}: userdel refused: {}", name, ExternalTool.complaint(outcome));
        return false;
    }

    @SaltFunction(doc = "Change the login shell of the user. Returns True when the shell is now the given one.\n\n"
            + "CLI Example: salt '*' user.chshell foo /bin/zsh")
    public boolean chshell(@Arg("name") String name, @Arg("shell") String shell,
                           @Arg(value = "root", defaultValue = Arg.NULL) String root) {
        return changeAttribute(name, "-s", shell, false, AccountRoot.of(root), PasswdEntry::shell);
    }

    @SaltFunction(doc = "Change the home directory of the user; persist=True moves the old home's contents there. "
            + "Returns True when the home is now the given one.\n\nCLI Example: salt '*' user.chhome foo /home/users/foo True")
    public boolean chhome(@Arg("name") String name, @Arg("home") String home,
                          @Arg(value = "persist", defaultValue = "false") boolean persist,
                          @Arg(value = "root", defaultValue = Arg.NULL) String root) {
        return changeAttribute(name, "-d", home, persist, AccountRoot.of(root), PasswdEntry::home);
    }

    @SaltFunction(doc = "Set the groups the user belongs to (a list, or names separated by commas); append=True adds "
            + "them to the present ones instead. Returns True when usermod succeeded (or nothing had to change).\n\n"
            + "CLI Examples: salt '*' user.chgroups foo wheel,root; salt '*' user.chgroups foo wheel,root append=True")
    public boolean chgroups(@Arg("name") String name, @Arg("groups") List<Object> groups,
                            @Arg(value = "append", defaultValue = "false") boolean append,
                            @Arg(value = "root", defaultValue = Arg.NULL) String root) {
        AccountName.require("user", name);
        return changeGroups(name, groupNames(groups), append, AccountRoot.of(root));
    }

    private boolean changeGroups(String name, List<String> groups, boolean append, AccountRoot at) {
        AccountDatabase accounts = at.accounts(hostAccounts);
        PasswdEntry user = existing(accounts, name);
        if (Set.copyOf(accounts.groupNames(user)).equals(Set.copyOf(groups))) {
            return true;
        }
        CommandOutcome outcome = run(ShadowCommand.of("usermod").flag("-a", append)
                .optionEvenIfEmpty("-G", String.join(",", groups))
                .root(at).account("user", name));
        if (outcome.exitCode() != 0 && outcome.stderr().contains("not found in")) {
            // as Salt: a group usermod cannot see locally (old pam_ldap setups) is tried with gpasswd, one by one
            boolean all = true;
            for (String group : groups) {
                all &= run(ShadowCommand.of("gpasswd").option("-a", name).root(at).account("group", group)).exitCode() == 0;
            }
            return all;
        }
        if (outcome.exitCode() != 0) {
            LOG.info("user.chgroups {}: usermod refused: {}", name, ExternalTool.complaint(outcome));
        }
        return outcome.exitCode() == 0;
    }

    /** Salt's _chattrib: True at once when the value is already set, else usermod and a look at the result. */
    private boolean changeAttribute(String name, String option, String value, boolean persist, AccountRoot at,
                                    Function<PasswdEntry, String> attribute) {
        AccountName.require("user", name);
        AccountDatabase accounts = at.accounts(hostAccounts);
        if (Objects.equals(attribute.apply(existing(accounts, name)), value)) {
            return true;
        }
        CommandOutcome outcome = run(ShadowCommand.of("usermod").root(at).flag("-m", persist).option(option, value)
                .account("user", name));
        if (outcome.exitCode() != 0) {
            LOG.info("usermod {} for {} refused: {}", option, name, ExternalTool.complaint(outcome));
        }
        return Objects.equals(attribute.apply(existing(accounts, name)), value);
    }

    private static PasswdEntry existing(AccountDatabase accounts, String name) {
        return accounts.user(name).orElseThrow(() -> new CommandExecutionException("User '" + name + "' does not exist"));
    }

    private static List<String> groupNames(List<Object> groups) {
        Set<String> names = new LinkedHashSet<>();
        for (Object group : groups) {
            names.add(AccountName.require("group", String.valueOf(group).strip()));
        }
        return new ArrayList<>(names);
    }

    static CommandOutcome run(ShadowCommand command) {
        return ExternalTool.run(command.argv(), Map.of(), TIMEOUT);
    }

    /** The five GECOS fields as chfn and Salt's _build_gecos join them, checked so none can shift the others. */
    private record Gecos(String fullname, String roomnumber, String workphone, String homephone, String other) {
        Gecos {
            fullname = fullname == null ? "" : fullname;
            roomnumber = roomnumber == null ? "" : roomnumber;
            workphone = workphone == null ? "" : workphone;
            homephone = homephone == null ? "" : homephone;
            other = other == null ? "" : other;
            for (String field : new String[] {fullname, roomnumber, workphone, homephone, other}) {
                if (field.indexOf(',') >= 0 || field.indexOf(':') >= 0 || field.indexOf('\n') >= 0) {
                    throw new CommandExecutionException("Invalid GECOS field '" + field + "': ',', ':' and new lines "
                            + "are not allowed");
                }
            }
        }

        boolean isEmpty() {
            return field().isEmpty();
        }

        String field() {
            return String.join(",", fullname, roomnumber, workphone, homephone, other).replaceAll(",+$", "");
        }
    }
}
