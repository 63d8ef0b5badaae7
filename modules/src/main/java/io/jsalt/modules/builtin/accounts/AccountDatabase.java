package io.jsalt.modules.builtin.accounts;

import io.jsalt.modules.builtin.system.ProcFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The local users and groups, read from a passwd and a group file each time it is asked (the files are
 * small and change under us: useradd, a config manager), so nothing is cached.
 */
public final class AccountDatabase {

    private final Path passwd;
    private final Path group;

    public AccountDatabase(Path passwd, Path group) {
        this.passwd = passwd;
        this.group = group;
    }

    public static AccountDatabase system() {
        return new AccountDatabase(Path.of("/etc/passwd"), Path.of("/etc/group"));
    }

    public List<PasswdEntry> users() {
        return PasswdEntry.parseFile(ProcFile.read(passwd));
    }

    public List<GroupEntry> groups() {
        return GroupEntry.parseFile(ProcFile.read(group));
    }

    public Optional<PasswdEntry> user(String name) {
        return users().stream().filter(user -> user.name().equals(name)).findFirst();
    }

    public Optional<GroupEntry> group(String name) {
        return groups().stream().filter(entry -> entry.name().equals(name)).findFirst();
    }

    /** The user's name for a uid, or the number as text when no user has it (as ps prints it). */
    public String userName(long uid) {
        return users().stream().filter(user -> user.uid() == uid).map(PasswdEntry::name).findFirst()
                .orElse(Long.toString(uid));
    }

    /** The names of the groups a user is in: the primary group and every group listing it, sorted. */
    public List<String> groupNames(PasswdEntry user) {
        TreeSet<String> names = new TreeSet<>();
        for (GroupEntry entry : groups()) {
            if (entry.gid() == user.gid() || entry.members().contains(user.name())) {
                names.add(entry.name());
            }
        }
        return List.copyOf(names);
    }
}
