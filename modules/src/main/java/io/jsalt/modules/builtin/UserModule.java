package io.jsalt.modules.builtin;

import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.builtin.accounts.AccountDatabase;
import io.jsalt.modules.builtin.accounts.PasswdEntry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The reading half of Salt's {@code user} module (useradd): local users from /etc/passwd and /etc/group
 * ({@link UserWriteModule} adds, deletes and changes them).
 *
 * <p>Unlike Salt, whose {@code user.info} returns {} for an unknown user, jsalt answers with an error
 * naming the user, so a typo is not mistaken for an empty account.
 */
@SaltModule(name = "user", doc = "Manage local users (Salt's useradd module).")
public final class UserModule implements ExecutionModule {

    private final AccountDatabase accounts;

    public UserModule() {
        this(AccountDatabase.system());
    }

    /** For tests: users and groups from other files. */
    public UserModule(AccountDatabase accounts) {
        this.accounts = accounts;
    }

    @SaltFunction(doc = "Return user information: name, passwd, uid, gid, home, shell, groups and the GECOS "
            + "fields (fullname, roomnumber, workphone, homephone, other).\n\nCLI Example: salt '*' user.info root")
    public Map<String, Object> info(@Arg("name") String name) {
        PasswdEntry user = accounts.user(name)
                .orElseThrow(() -> new CommandExecutionException("User '" + name + "' does not exist"));
        return describe(user);
    }

    @SaltFunction(doc = "Return the list of all users, sorted.\n\nCLI Example: salt '*' user.list_users")
    public List<String> list_users() {
        return accounts.users().stream().map(PasswdEntry::name).distinct().sorted().toList();
    }

    @SaltFunction(doc = "Return the information of every user, like user.info for each, in /etc/passwd order.\n\n"
            + "CLI Example: salt '*' user.getent")
    public List<Map<String, Object>> getent(@Arg(value = "refresh", defaultValue = "false") boolean refresh) {
        // refresh is Salt's cache switch; jsalt reads the files on every call
        List<Map<String, Object>> ret = new ArrayList<>();
        for (PasswdEntry user : accounts.users()) {
            ret.add(describe(user));
        }
        return ret;
    }

    @SaltFunction(doc = "Return the sorted list of groups the user belongs to, its primary group included.\n\n"
            + "CLI Example: salt '*' user.list_groups foo")
    public List<String> list_groups(@Arg("name") String name) {
        PasswdEntry user = accounts.user(name)
                .orElseThrow(() -> new CommandExecutionException("User '" + name + "' does not exist"));
        return accounts.groupNames(user);
    }

    private Map<String, Object> describe(PasswdEntry user) {
        List<String> gecos = user.gecosFields();
        Map<String, Object> ret = new LinkedHashMap<>();
        ret.put("gid", user.gid());
        ret.put("groups", accounts.groupNames(user));
        ret.put("home", user.home());
        ret.put("name", user.name());
        ret.put("passwd", user.passwd());
        ret.put("shell", user.shell());
        ret.put("uid", user.uid());
        ret.put("fullname", gecos.get(0));
        ret.put("roomnumber", gecos.get(1));
        ret.put("workphone", gecos.get(2));
        ret.put("homephone", gecos.get(3));
        ret.put("other", gecos.get(4));
        return ret;
    }
}
