package io.jsalt.states.builtin;

import static io.jsalt.states.TestCalls.call;
import static io.jsalt.states.TestCalls.list;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.builtin.accounts.AccountDatabase;
import io.jsalt.modules.builtin.accounts.GroupEntry;
import io.jsalt.modules.builtin.accounts.PasswdEntry;
import io.jsalt.states.run.StateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * user.present/absent and group.present/absent with the real shadow tools (useradd, usermod, groupadd, gpasswd,
 * ...) on a root folder of their own ({@code -R}), so the machine's /etc is never touched. The tests run as root.
 */
class AccountStatesTest {
    @TempDir
    Path files;
    @TempDir
    Path root;
    private UserStates users;
    private GroupStates groups;
    private AccountDatabase db;

    @BeforeEach
    void aRootWithItsOwnAccountFiles() throws Exception {
        Files.createDirectories(root.resolve("etc"));
        Files.createDirectories(root.resolve("home"));
        Files.writeString(root.resolve("etc/passwd"), "root:x:0:0:root:/root:/bin/bash\n");
        Files.writeString(root.resolve("etc/group"), "root:x:0:\nstaff:x:50:\n");
        Files.writeString(root.resolve("etc/shadow"), "root:*:19000:0:99999:7:::\n");
        Files.writeString(root.resolve("etc/gshadow"), "root:*::\nstaff:*::\n");
        // useradd reads login.defs inside the root: USERGROUPS_ENAB gives each user a group of its own, as on Debian
        Files.writeString(root.resolve("etc/login.defs"), "USERGROUPS_ENAB yes\nUID_MIN 1000\nGID_MIN 1000\n");
        AccountStore store = AccountStore.under(root);
        users = new UserStates(store);
        groups = new GroupStates(store);
        db = store.database();
    }

    private PasswdEntry user(String name) {
        return db.user(name).orElseThrow();
    }

    private GroupEntry group(String name) {
        return db.group(name).orElseThrow();
    }

    @Test
    void groupPresentCreatesTheGroupWithItsGidAndMembersThenSaysItIsUpToDate() {
        StateResult test = groups.present(call(files, true, "web", "gid", 2001));
        assertThat(test.result()).isNull();
        assertThat(test.comment()).isEqualTo("Group web set to be added");
        assertThat(db.group("web")).isEmpty();

        StateResult r = groups.present(call(files, false, "web", "gid", 2001, "members", list("root")));
        assertThat(r.result()).isTrue();
        assertThat(r.comment()).isEqualTo("New group web created");
        assertThat(r.changes()).containsEntry("name", "web").containsEntry("gid", 2001L)
                .containsEntry("members", List.of("root"));
        assertThat(group("web").gid()).isEqualTo(2001);
        assertThat(group("web").members()).containsExactly("root");

        StateResult again = groups.present(call(files, false, "web", "gid", 2001, "members", list("root")));
        assertThat(again.result()).isTrue();
        assertThat(again.changes()).isEmpty();
        assertThat(again.comment()).isEqualTo("Group web is present and up to date");
    }

    @Test
    void groupPresentChangesGidAndMembersOfAnExistingGroup() {
        groups.present(call(files, false, "web", "gid", 2001));
        StateResult test = groups.present(call(files, true, "web", "gid", 2002, "addusers", list("root")));
        assertThat(test.result()).isNull();
        assertThat(test.comment()).isEqualTo("The following group attributes are set to be changed:\ngid: 2002\n"
                + "addusers: ['root']\n");
        assertThat(group("web").gid()).isEqualTo(2001);

        StateResult r = groups.present(call(files, false, "web", "gid", 2002, "addusers", list("root")));
        assertThat(r.result()).isTrue();
        assertThat(r.changes()).isEqualTo(Map.of("Final", "All changes applied successfully"));
        assertThat(group("web").gid()).isEqualTo(2002);
        assertThat(group("web").members()).containsExactly("root");

        assertThat(groups.present(call(files, false, "web", "delusers", list("root"))).result()).isTrue();
        assertThat(group("web").members()).isEmpty();

        // a gid another group has needs non_unique (groupmod -o)
        StateResult refused = groups.present(call(files, false, "web", "gid", 50));
        assertThat(refused.result()).isFalse();
        assertThat(refused.comment()).endsWith("gid: 50\nSome changes could not be applied");
        assertThat(refused.changes()).isEqualTo(Map.of("Failed", Map.of("gid", 50L)));
        assertThat(group("web").gid()).isEqualTo(2002);
        assertThat(groups.present(call(files, false, "web", "gid", 50, "non_unique", true)).result()).isTrue();
        assertThat(group("web").gid()).isEqualTo(50);
    }

    @Test
    void groupPresentRefusesConflictsAndATakenGid() {
        assertThat(groups.present(call(files, false, "web", "members", list("a"), "addusers", list("b"))).comment())
                .startsWith("Error: Conflicting options \"members\"");
        StateResult taken = groups.present(call(files, false, "web", "gid", 50));
        assertThat(taken.result()).isFalse();
        assertThat(taken.comment()).isEqualTo("Group web is not present but gid 50 is already taken by group staff");
        assertThat(groups.present(call(files, false, "web", "gid", "x")).comment()).isEqualTo("Invalid gid");
        assertThat(db.group("web")).isEmpty();
    }

    @Test
    void groupAbsentRemovesTheGroup() {
        assertThat(groups.absent(call(files, false, "nothere")).comment()).isEqualTo("Group not present");
        assertThat(groups.absent(call(files, true, "staff")).result()).isNull();
        assertThat(db.group("staff")).isPresent();
        StateResult r = groups.absent(call(files, false, "staff"));
        assertThat(r.result()).isTrue();
        assertThat(r.changes()).isEqualTo(Map.of("staff", ""));
        assertThat(r.comment()).isEqualTo("Removed group staff");
        assertThat(db.group("staff")).isEmpty();
    }

    @Test
    void userPresentCreatesTheUserWithItsHomeAndGroups() {
        StateResult test = users.present(call(files, true, "ann", "uid", 3001));
        assertThat(test.result()).isNull();
        assertThat(test.comment()).isEqualTo("User ann set to be added");
        assertThat(db.user("ann")).isEmpty();

        StateResult r = users.present(call(files, false, "ann", "uid", 3001, "shell", "/bin/sh", "groups",
                list("staff"), "fullname", "Ann Example", "home", "/home/ann"));
        assertThat(r.result()).isTrue();
        assertThat(r.comment()).isEqualTo("New user ann created");
        assertThat(r.changes()).containsEntry("uid", 3001L).containsEntry("shell", "/bin/sh")
                .containsEntry("home", "/home/ann").containsEntry("fullname", "Ann Example");
        assertThat(user("ann").uid()).isEqualTo(3001);
        assertThat(group("staff").members()).containsExactly("ann");
        assertThat(root.resolve("home/ann")).isDirectory();

        StateResult again = users.present(call(files, false, "ann", "uid", 3001, "shell", "/bin/sh", "groups",
                list("staff"), "fullname", "Ann Example", "home", "/home/ann"));
        assertThat(again.result()).isTrue();
        assertThat(again.changes()).isEmpty();
        assertThat(again.comment()).isEqualTo("User ann is present and up to date");
    }

    @Test
    void userPresentChangesShellGroupsGecosAndUidWhenAllowed() {
        users.present(call(files, false, "bob", "groups", list("staff"), "createhome", false));
        StateResult refused = users.present(call(files, false, "bob", "uid", 3500, "createhome", false));
        assertThat(refused.result()).isFalse();
        assertThat(refused.comment()).contains("Changing uid (").contains("-> 3500) not permitted");

        StateResult test = users.present(call(files, true, "bob", "shell", "/bin/false", "groups", list(),
                "createhome", false));
        assertThat(test.result()).isNull();
        assertThat(test.comment()).isEqualTo("The following user attributes are set to be changed:\ngroups: []\n"
                + "shell: /bin/false\n");

        StateResult r = users.present(call(files, false, "bob", "shell", "/bin/false", "groups", list(),
                "fullname", "Bob", "uid", 3500, "allow_uid_change", true, "createhome", false));
        assertThat(r.result()).as(r.comment()).isTrue();
        assertThat(r.comment()).isEqualTo("Updated user bob");
        assertThat(r.changes()).containsEntry("shell", "/bin/false").containsEntry("uid", 3500L)
                .containsEntry("fullname", "Bob").containsEntry("groups", List.of("bob"));
        assertThat(user("bob").shell()).isEqualTo("/bin/false");
        assertThat(user("bob").uid()).isEqualTo(3500);
        assertThat(group("staff").members()).isEmpty();
    }

    @Test
    void userPresentRefusesMissingGroupsAndUnknownArguments() {
        StateResult r = users.present(call(files, false, "cat", "groups", list("nosuch", "staff")));
        assertThat(r.result()).isFalse();
        assertThat(r.comment()).isEqualTo("The following group(s) are not present: nosuch");
        assertThat(db.user("cat")).isEmpty();
    }

    @Test
    void userAbsentRemovesTheUserAndItsOwnGroup() {
        users.present(call(files, false, "dan"));
        assertThat(db.group("dan")).isPresent();
        assertThat(users.absent(call(files, true, "dan")).comment()).isEqualTo("User dan set for removal");
        assertThat(db.user("dan")).isPresent();
        StateResult r = users.absent(call(files, false, "dan", "purge", true));
        assertThat(r.result()).isTrue();
        assertThat(r.changes()).isEqualTo(Map.of("dan group", "removed", "dan", "removed"));
        assertThat(r.comment()).isEqualTo("Removed user dan");
        assertThat(db.user("dan")).isEmpty();
        assertThat(root.resolve("home/dan")).doesNotExist();
        assertThat(users.absent(call(files, false, "dan")).comment()).isEqualTo("User dan is not present");
    }
}
