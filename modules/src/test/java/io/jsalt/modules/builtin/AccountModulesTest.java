package io.jsalt.modules.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.builtin.accounts.AccountDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccountModulesTest {

    @TempDir
    Path dir;

    private ModuleCalls calls;

    @BeforeEach
    void writeAccountFiles() throws IOException {
        Path passwd = Files.writeString(dir.resolve("passwd"), """
                root:x:0:0:root:/root:/bin/bash
                # a comment
                ada:x:1000:1000:Ada Lovelace,12,555-1,555-2,analyst:/home/ada:/bin/zsh
                bob:*:1001:100::/home/bob:/usr/sbin/nologin
                broken:x:notanumber:1::/:/bin/sh
                """);
        Path group = Files.writeString(dir.resolve("group"), """
                root:x:0:
                users:x:100:ada
                ada:x:1000:
                wheel:x:10:ada,bob
                """);
        AccountDatabase accounts = new AccountDatabase(passwd, group);
        calls = ModuleCalls.of(new UserModule(accounts), new GroupModule(accounts));
    }

    @Test
    void userInfoHasSaltsKeysWithTheGecosFieldsSplit() {
        Map<String, Object> info = calls.map("user.info", "ada");

        assertThat(info).containsExactly(
                Map.entry("gid", 1000L), Map.entry("groups", List.of("ada", "users", "wheel")),
                Map.entry("home", "/home/ada"), Map.entry("name", "ada"), Map.entry("passwd", "x"),
                Map.entry("shell", "/bin/zsh"), Map.entry("uid", 1000L), Map.entry("fullname", "Ada Lovelace"),
                Map.entry("roomnumber", "12"), Map.entry("workphone", "555-1"), Map.entry("homephone", "555-2"),
                Map.entry("other", "analyst"));
    }

    @Test
    void userInfoOfAnUnknownUserIsAClearError() {
        CallResult result = calls.call("user.info", "nobody-here");

        assertThat(result.retcode()).isEqualTo(1);
        assertThat(result.ret()).isEqualTo("ERROR: User 'nobody-here' does not exist");
    }

    @Test
    void listUsersIsSortedAndSkipsCommentsAndBrokenLines() {
        assertThat(calls.ret("user.list_users")).isEqualTo(List.of("ada", "bob", "root"));
    }

    @Test
    void userGetentDescribesEveryUserInFileOrder() {
        List<Object> users = calls.list("user.getent");

        assertThat(users).extracting(user -> ModuleCalls.asMap(user).get("name")).containsExactly("root", "ada", "bob");
        assertThat(ModuleCalls.asMap(users.get(2))).containsEntry("fullname", "").containsEntry("other", "")
                .containsEntry("groups", List.of("users", "wheel"));
    }

    @Test
    void listGroupsIncludesThePrimaryGroupInBothModules() {
        assertThat(calls.ret("user.list_groups", "bob")).isEqualTo(List.of("users", "wheel"));
        assertThat(calls.ret("group.list_groups", "bob")).isEqualTo(List.of("users", "wheel"));
        assertThat(calls.call("group.list_groups", "ghost").ret()).isEqualTo("ERROR: User 'ghost' does not exist");
    }

    @Test
    void groupInfoListsMembers() {
        assertThat(calls.map("group.info", "wheel")).containsExactly(Map.entry("name", "wheel"),
                Map.entry("passwd", "x"), Map.entry("gid", 10L), Map.entry("members", List.of("ada", "bob")));
        assertThat(calls.call("group.info", "ghosts").ret()).isEqualTo("ERROR: Group 'ghosts' does not exist");
    }

    @Test
    void groupGetentDescribesEveryGroup() {
        assertThat(calls.list("group.getent")).extracting(group -> ModuleCalls.asMap(group).get("name"))
                .containsExactly("root", "users", "ada", "wheel");
    }

    @Test
    void aMissingPasswdFileIsAnErrorNotAnException() {
        AccountDatabase missing = new AccountDatabase(dir.resolve("none"), dir.resolve("none2"));
        CallResult result = ModuleCalls.of(new UserModule(missing)).call("user.list_users");

        assertThat(result.retcode()).isEqualTo(1);
        assertThat((String) result.ret()).startsWith("ERROR: Unable to read " + dir.resolve("none"));
    }

    @Test
    void theSystemModulesAgreeWithThisMachinesPasswdFile() throws IOException {
        ModuleCalls system = ModuleCalls.builtIn();
        List<String> names = Files.readAllLines(Path.of("/etc/passwd")).stream()
                .filter(line -> !line.isBlank() && !line.startsWith("#")).map(line -> line.split(":")[0])
                .distinct().sorted().toList();

        assertThat(system.ret("user.list_users")).isEqualTo(names);
        assertThat(system.map("user.info", "root")).containsEntry("uid", 0L).containsEntry("name", "root");
        assertThat(system.map("group.info", "root")).containsEntry("gid", 0L);
        assertThat(system.list("group.getent")).isNotEmpty();
        assertThat(system.list("user.getent")).hasSize(system.list("user.list_users").size());
    }
}
