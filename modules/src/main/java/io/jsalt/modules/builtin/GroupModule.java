package io.jsalt.modules.builtin;

import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.builtin.accounts.AccountDatabase;
import io.jsalt.modules.builtin.accounts.GroupEntry;
import io.jsalt.modules.builtin.accounts.PasswdEntry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The reading half of Salt's {@code group} module (groupadd): local groups from /etc/group
 * ({@link GroupWriteModule} adds, deletes and changes them).
 *
 * <p>Unlike Salt, whose {@code group.info} returns {} for an unknown group, jsalt answers with an error.
 */
@SaltModule(name = "group", doc = "Manage local groups (Salt's groupadd module).")
public final class GroupModule implements ExecutionModule {

    private final AccountDatabase accounts;

    public GroupModule() {
        this(AccountDatabase.system());
    }

    /** For tests: users and groups from other files. */
    public GroupModule(AccountDatabase accounts) {
        this.accounts = accounts;
    }

    @SaltFunction(doc = "Return information about a group: name, passwd, gid and members.\n\n"
            + "CLI Example: salt '*' group.info foo")
    public Map<String, Object> info(@Arg("name") String name) {
        GroupEntry group = accounts.group(name)
                .orElseThrow(() -> new CommandExecutionException("Group '" + name + "' does not exist"));
        return describe(group);
    }

    @SaltFunction(doc = "Return info on all groups, in /etc/group order.\n\nCLI Example: salt '*' group.getent")
    public List<Map<String, Object>> getent(@Arg(value = "refresh", defaultValue = "false") boolean refresh) {
        // refresh is Salt's cache switch; jsalt reads the file on every call
        List<Map<String, Object>> ret = new ArrayList<>();
        for (GroupEntry group : accounts.groups()) {
            ret.add(describe(group));
        }
        return ret;
    }

    @SaltFunction(doc = "Return the sorted list of groups a user belongs to, its primary group included "
            + "(the same as user.list_groups).\n\nCLI Example: salt '*' group.list_groups foo")
    public List<String> list_groups(@Arg("name") String name) {
        PasswdEntry user = accounts.user(name)
                .orElseThrow(() -> new CommandExecutionException("User '" + name + "' does not exist"));
        return accounts.groupNames(user);
    }

    private static Map<String, Object> describe(GroupEntry group) {
        Map<String, Object> ret = new LinkedHashMap<>();
        ret.put("name", group.name());
        ret.put("passwd", group.passwd());
        ret.put("gid", group.gid());
        ret.put("members", group.members());
        return ret;
    }
}
