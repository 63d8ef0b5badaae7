package io.jsalt.modules.builtin;

import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.builtin.accounts.AccountDatabase;
import io.jsalt.modules.builtin.accounts.AccountName;
import io.jsalt.modules.builtin.accounts.AccountRoot;
import io.jsalt.modules.builtin.accounts.GroupEntry;
import io.jsalt.modules.builtin.accounts.ShadowCommand;
import io.jsalt.modules.builtin.cmd.CommandOutcome;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writing half of Salt's {@code group} module (groupadd.py): add and delete local groups with groupadd and
 * groupdel, and change their members with gpasswd. Signatures and return values are Salt 3006's: True or False
 * for what the tool did (its complaint goes to the minion's log); a name that is not a valid account name is an
 * error and runs nothing.
 */
@SaltModule(name = "group")
public final class GroupWriteModule implements ExecutionModule {

    private static final Logger LOG = LoggerFactory.getLogger(GroupWriteModule.class);

    private final AccountDatabase hostAccounts;

    public GroupWriteModule() {
        this(AccountDatabase.system());
    }

    /** For tests: reads the host's groups from other files (the tools still change the real ones). */
    public GroupWriteModule(AccountDatabase hostAccounts) {
        this.hostAccounts = hostAccounts;
    }

    @SaltFunction(doc = "Add the group, with the given gid if any (non_unique=True allows a gid another group has; "
            + "system=True makes a system group). Returns True when groupadd succeeded.\n\n"
            + "CLI Example: salt '*' group.add foo 3456")
    public boolean add(@Arg("name") String name, @Arg(value = "gid", defaultValue = Arg.NULL) String gid,
                       @Arg(value = "system", defaultValue = "false") boolean system,
                       @Arg(value = "root", defaultValue = Arg.NULL) String root,
                       @Arg(value = "non_unique", defaultValue = "false") boolean nonUnique) {
        boolean withGid = gid != null && !gid.isEmpty();
        return succeeded("group.add " + name, ShadowCommand.of("groupadd").option("-g", gid).flag("-o", withGid && nonUnique)
                .flag("-r", system).root(AccountRoot.of(root)).account("group", name));
    }

    @SaltFunction(doc = "Remove the group. Returns True when groupdel succeeded.\n\nCLI Example: salt '*' group.delete foo")
    public boolean delete(@Arg("name") String name, @Arg(value = "root", defaultValue = Arg.NULL) String root) {
        return succeeded("group.delete " + name, ShadowCommand.of("groupdel").root(AccountRoot.of(root)).account("group", name));
    }

    @SaltFunction(doc = "Add the user username to the group name (gpasswd --add). Returns True when it is a member "
            + "now.\n\nCLI Example: salt '*' group.adduser foo bar")
    public boolean adduser(@Arg("name") String name, @Arg("username") String username,
                           @Arg(value = "root", defaultValue = Arg.NULL) String root) {
        AccountName.require("user", username);
        return succeeded("group.adduser " + name, ShadowCommand.of("gpasswd").option("-a", username)
                .root(AccountRoot.of(root)).account("group", name));
    }

    @SaltFunction(doc = "Remove the user username from the group name (gpasswd --del). Returns True when it is not a "
            + "member now, also when it was not one or the group does not exist.\n\nCLI Example: salt '*' group.deluser foo bar")
    public boolean deluser(@Arg("name") String name, @Arg("username") String username,
                           @Arg(value = "root", defaultValue = Arg.NULL) String root) {
        AccountName.require("group", name);
        AccountName.require("user", username);
        AccountRoot at = AccountRoot.of(root);
        Optional<GroupEntry> group = at.accounts(hostAccounts).group(name);
        if (group.isEmpty() || !group.get().members().contains(username)) {
            return true; // as Salt: nothing to remove
        }
        return succeeded("group.deluser " + name, ShadowCommand.of("gpasswd").option("-d", username).root(at)
                .account("group", name));
    }

    private static boolean succeeded(String what, ShadowCommand command) {
        CommandOutcome outcome = UserWriteModule.run(command);
        if (outcome.exitCode() != 0) {
            LOG.info("{}: {} refused: {}", what, command.argv().get(0), ExternalTool.complaint(outcome));
        }
        return outcome.exitCode() == 0;
    }
}
