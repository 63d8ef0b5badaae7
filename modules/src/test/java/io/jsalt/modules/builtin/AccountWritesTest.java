package io.jsalt.modules.builtin;

import static io.jsalt.modules.builtin.ModuleCalls.kwargs;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.builtin.accounts.AccountDatabase;
import io.jsalt.modules.builtin.accounts.GroupEntry;
import io.jsalt.modules.builtin.accounts.PasswdEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * user.add/delete/ch* and group.add/delete/adduser/deluser on this very machine (the tests run as root): every
 * user and group made here has a fresh name {@code jsalt-t-<random>} and is removed after each test, and every
 * change is checked in /etc/passwd and /etc/group.
 */
class AccountWritesTest {

    private final AccountDatabase host = AccountDatabase.system();
    private final ModuleCalls calls = ModuleCalls.builtIn();
    private final List<String> users = new ArrayList<>();
    private final List<String> groups = new ArrayList<>();

    @TempDir
    Path dir;

    private String newUser() {
        String name = uniqueName();
        users.add(name);
        return name;
    }

    private String newGroup() {
        String name = uniqueName();
        groups.add(name);
        return name;
    }

    private static String uniqueName() {
        byte[] random = new byte[5];
        ThreadLocalRandom.current().nextBytes(random);
        return "jsalt-t-" + HexFormat.of().formatHex(random);
    }

    @AfterEach
    void removeWhatTheTestMade() throws Exception {
        // straight through the tools, so a broken module cannot leave accounts behind
        for (String user : users) {
            if (host.user(user).isPresent()) {
                tool("userdel", "-r", "-f", user);
            }
        }
        for (String group : groups) {
            if (host.group(group).isPresent()) {
                tool("groupdel", group);
            }
        }
        for (String name : users) {
            if (host.group(name).isPresent()) {
                tool("groupdel", name); // the user's own group, left when the user was made outside useradd -U
            }
        }
        assertThat(users).allSatisfy(user -> assertThat(host.user(user)).isEmpty());
        assertThat(groups).allSatisfy(group -> assertThat(host.group(group)).isEmpty());
    }

    private static void tool(String... argv) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        p.waitFor(60, TimeUnit.SECONDS);
    }

    private PasswdEntry passwd(String user) {
        return host.user(user).orElseThrow(() -> new AssertionError(user + " is not in /etc/passwd"));
    }

    private GroupEntry group(String name) {
        return host.group(name).orElseThrow(() -> new AssertionError(name + " is not in /etc/group"));
    }

    @Test
    void addCreatesTheUserWithShellHomeAndGecosAndASecondAddAnswersFalse() {
        String user = newUser();
        Path home = dir.resolve("home-" + user);

        Object added = calls.ret("user.add", user, kwargs("shell", "/bin/sh", "home", home.toString(),
                "fullname", "Test Person", "workphone", "555-1"));

        assertThat(added).isEqualTo(true);
        PasswdEntry entry = passwd(user);
        assertThat(entry.shell()).isEqualTo("/bin/sh");
        assertThat(entry.home()).isEqualTo(home.toString());
        assertThat(entry.gecos()).isEqualTo("Test Person,,555-1");
        assertThat(home).isDirectory();
        assertThat(calls.map("user.info", user)).containsEntry("fullname", "Test Person").containsEntry("workphone", "555-1");
        assertThat(calls.ret("user.add", user)).isEqualTo(false);
    }

    @Test
    void addWithUidAndNoHomeAndDeleteRemovesTheUser() {
        String user = newUser();

        assertThat(calls.ret("user.add", user, kwargs("uid", 64123, "createhome", false, "usergroup", true))).isEqualTo(true);
        assertThat(passwd(user).uid()).isEqualTo(64123L);
        assertThat(group(user).gid()).isEqualTo(passwd(user).gid());
        assertThat(Path.of("/home", user)).doesNotExist();

        assertThat(calls.ret("user.delete", user, kwargs("remove", true))).isEqualTo(true);
        assertThat(host.user(user)).isEmpty();
        assertThat(calls.ret("user.delete", user)).isEqualTo(false);
    }

    @Test
    void chshellAndChhomeChangeThePasswdLineAndPersistMovesTheHome() throws IOException {
        String user = newUser();
        Path oldHome = dir.resolve("old");
        Path newHome = dir.resolve("new");
        calls.ret("user.add", user, kwargs("home", oldHome.toString(), "shell", "/bin/sh"));
        Files.writeString(oldHome.resolve("note"), "kept");

        assertThat(calls.ret("user.chshell", user, "/bin/bash")).isEqualTo(true);
        assertThat(calls.ret("user.chshell", user, "/bin/bash")).isEqualTo(true);
        assertThat(calls.ret("user.chhome", user, newHome.toString(), true)).isEqualTo(true);

        assertThat(passwd(user).shell()).isEqualTo("/bin/bash");
        assertThat(passwd(user).home()).isEqualTo(newHome.toString());
        assertThat(newHome.resolve("note")).hasContent("kept");
        assertThat(oldHome).doesNotExist();
    }

    @Test
    void chgroupsSetsOrAppendsSupplementaryGroups() {
        String user = newUser();
        String first = newGroup();
        String second = newGroup();
        calls.ret("user.add", user, kwargs("createhome", false));
        calls.ret("group.add", first);
        calls.ret("group.add", second);

        assertThat(calls.ret("user.chgroups", user, first)).isEqualTo(true);
        assertThat(group(first).members()).containsExactly(user);

        assertThat(calls.ret("user.chgroups", user, second, kwargs("append", true))).isEqualTo(true);
        assertThat(group(first).members()).containsExactly(user);
        assertThat(group(second).members()).containsExactly(user);

        assertThat(calls.ret("user.chgroups", user, second)).isEqualTo(true);
        assertThat(group(first).members()).isEmpty();
        assertThat(calls.ret("user.list_groups", user)).isEqualTo(List.of(second, user).stream().sorted().toList());
    }

    @Test
    void addWithGroupsPutsTheNewUserInThem() {
        String user = newUser();
        String extra = newGroup();
        calls.ret("group.add", extra);

        assertThat(calls.ret("user.add", user, kwargs("groups", extra, "createhome", false))).isEqualTo(true);

        assertThat(group(extra).members()).containsExactly(user);
    }

    @Test
    void groupAddWithGidAdduserDeluserAndDelete() {
        String name = newGroup();
        String user = newUser();
        calls.ret("user.add", user, kwargs("createhome", false));

        assertThat(calls.ret("group.add", name, 64124)).isEqualTo(true);
        assertThat(group(name).gid()).isEqualTo(64124L);
        assertThat(calls.ret("group.add", name)).isEqualTo(false);

        assertThat(calls.ret("group.adduser", name, user)).isEqualTo(true);
        assertThat(group(name).members()).containsExactly(user);
        assertThat(calls.ret("group.deluser", name, user)).isEqualTo(true);
        assertThat(group(name).members()).isEmpty();
        assertThat(calls.ret("group.deluser", name, user)).as("not a member any more").isEqualTo(true);

        assertThat(calls.ret("group.delete", name)).isEqualTo(true);
        assertThat(host.group(name)).isEmpty();
        assertThat(calls.ret("group.delete", name)).isEqualTo(false);
        assertThat(calls.ret("group.deluser", name, user)).as("no such group").isEqualTo(true);
    }

    @Test
    void namesThatCouldReadAsOptionsAreRefusedAndChangeNothing() throws IOException {
        String passwdBefore = Files.readString(Path.of("/etc/passwd"));
        String groupBefore = Files.readString(Path.of("/etc/group"));

        assertThat(calls.call("user.add", "-o")).isEqualTo(CallResult.failed(
                "ERROR: Invalid user name '-o': a name may not start with '-'", 1));
        assertThat(calls.call("user.delete", "--help").ret()).isEqualTo(
                "ERROR: Invalid user name '--help': a name may not start with '-'");
        assertThat(calls.call("group.add", "-r").ret()).isEqualTo("ERROR: Invalid group name '-r': a name may not start with '-'");
        assertThat(calls.call("group.adduser", "root", "-x").ret()).isEqualTo(
                "ERROR: Invalid user name '-x': a name may not start with '-'");
        assertThat((String) calls.call("user.add", "a:b").ret()).startsWith("ERROR: Invalid user name 'a:b': a name starts");
        assertThat((String) calls.call("user.add", "../x").ret()).startsWith("ERROR: Invalid user name '../x'");
        assertThat((String) calls.call("group.add", "1234").ret()).contains("is not all digits");
        assertThat(calls.call("user.chgroups", "root", "wheel,-G").ret()).isEqualTo(
                "ERROR: Invalid group name '-G': a name may not start with '-'");
        assertThat(calls.call("user.add", uniqueName(), kwargs("fullname", "a,b")).ret()).isEqualTo(
                "ERROR: Invalid GECOS field 'a,b': ',', ':' and new lines are not allowed");

        assertThat(Files.readString(Path.of("/etc/passwd"))).isEqualTo(passwdBefore);
        assertThat(Files.readString(Path.of("/etc/group"))).isEqualTo(groupBefore);
    }

    @Test
    void changingAUserThatDoesNotExistIsAClearError() {
        String ghost = uniqueName();

        assertThat(calls.call("user.chshell", ghost, "/bin/sh").ret()).isEqualTo("ERROR: User '" + ghost + "' does not exist");
        assertThat(calls.call("user.chgroups", ghost, "root").ret()).isEqualTo("ERROR: User '" + ghost + "' does not exist");
        assertThat(calls.ret("group.adduser", "root", ghost)).isEqualTo(false);
    }

    @Test
    void aRootFolderChangesTheAccountFilesThereAndNotTheHosts() throws IOException {
        Path root = dir.resolve("chroot");
        Files.createDirectories(root.resolve("etc"));
        Files.writeString(root.resolve("etc/passwd"), "root:x:0:0:root:/root:/bin/bash\n");
        Files.writeString(root.resolve("etc/group"), "root:x:0:\n");
        Files.writeString(root.resolve("etc/shadow"), "root:*:19000:0:99999:7:::\n");
        Files.writeString(root.resolve("etc/gshadow"), "root:*::\n");
        String user = uniqueName();
        String group = uniqueName();

        assertThat(calls.ret("user.add", user, kwargs("root", root.toString(), "createhome", false))).isEqualTo(true);
        assertThat(calls.ret("group.add", group, kwargs("root", root.toString()))).isEqualTo(true);

        AccountDatabase inRoot = new AccountDatabase(root.resolve("etc/passwd"), root.resolve("etc/group"));
        assertThat(inRoot.user(user)).isPresent();
        assertThat(inRoot.group(group)).isPresent();
        assertThat(host.user(user)).isEmpty();
        assertThat(host.group(group)).isEmpty();
        assertThat(calls.ret("user.chshell", user, "/bin/sh", kwargs("root", root.toString()))).isEqualTo(true);
        assertThat(inRoot.user(user).orElseThrow().shell()).isEqualTo("/bin/sh");
        // gpasswd takes the root as -Q (its -R means something else)
        assertThat(calls.ret("group.adduser", group, user, kwargs("root", root.toString()))).isEqualTo(true);
        assertThat(inRoot.group(group).orElseThrow().members()).containsExactly(user);
        assertThat(calls.ret("group.deluser", group, user, kwargs("root", root.toString()))).isEqualTo(true);
        assertThat(inRoot.group(group).orElseThrow().members()).isEmpty();
        calls.ret("group.adduser", group, user, kwargs("root", root.toString()));
        // an empty list clears the supplementary groups (usermod -G '')
        assertThat(calls.ret("user.chgroups", user, List.of(), kwargs("root", root.toString()))).isEqualTo(true);
        assertThat(inRoot.group(group).orElseThrow().members()).isEmpty();
        assertThat(calls.ret("user.delete", user, kwargs("root", root.toString()))).isEqualTo(true);
        assertThat(inRoot.user(user)).isEmpty();
        assertThat(calls.call("user.add", user, kwargs("root", "relative/path")).ret()).isEqualTo(
                "ERROR: Invalid root 'relative/path': an absolute path is expected");
    }
}
