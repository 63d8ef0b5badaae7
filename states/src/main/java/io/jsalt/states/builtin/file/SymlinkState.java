package io.jsalt.states.builtin.file;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.accounts.AccountDatabase;
import io.jsalt.modules.builtin.accounts.GroupEntry;
import io.jsalt.modules.builtin.file.DirectoryTree;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Salt's {@code file.symlink}: a symbolic link {@code name} to {@code target}, owned by {@code user}:{@code group}
 * (by default the minion's user and that user's primary group, as Salt's {@code __opts__["user"]}); {@code force}
 * replaces what is in the way, {@code backupname} moves it aside first, {@code makedirs} creates the folder.
 */
public final class SymlinkState {
    static final List<String> ARGS = List.of("target", "force", "backupname", "makedirs", "user", "group", "mode");

    private SymlinkState() {
    }

    public static StateResult run(StateCall call) {
        call.allowOnly("file.symlink", ARGS);
        String name = call.name();
        String target = call.string("target");
        if (target == null) {
            return StateResult.failed("file.symlink() missing 1 required positional argument: 'target'");
        }
        boolean force = call.flag("force", false);
        Object user = call.args().get("user") != null ? call.args().get("user") : System.getProperty("user.name");
        Object group = call.args().get("group");
        List<String> errors = new ArrayList<>();
        if (group == null) {
            group = primaryGroup(String.valueOf(user));
        }
        Perms owner;
        try {
            owner = Perms.of(user, group, call.args().get("mode"));
        } catch (CommandExecutionException e) {
            return StateResult.failed(e.getMessage());
        }
        if (Perms.uid(owner.user()) == null) {
            errors.add("User " + user + " does not exist");
        }
        if (group == null || Perms.gid(owner.group()) == null) {
            errors.add("Group " + group + " does not exist");
        }
        Path path = Path.of(name);
        if (!path.isAbsolute()) {
            errors.add("Specified file " + name + " is not an absolute path");
        }
        if (!errors.isEmpty()) {
            return StateResult.failed(String.join(". ", errors) + (errors.size() > 1 ? "." : ""));
        }
        path = path.normalize();
        String ownership = owner.user() + ":" + owner.group();
        try {
            StateResult check = check(path, target, force, owner);
            Path dir = path.getParent();
            String comment = check.comment();
            if (!Files.isDirectory(dir)) {
                if (call.flag("makedirs", false)) {
                    if (call.test()) {
                        comment += "\n" + dir + " will be created";
                    } else {
                        FileWrites.makeDirs(dir, owner);
                    }
                } else if (call.test()) {
                    comment += "\nDirectory " + dir + " for symlink is not present";
                } else {
                    return StateResult.failed("Directory " + dir + " for symlink is not present");
                }
            }
            if (call.test()) {
                return new StateResult(check.result(), check.changes(), comment);
            }
            Map<String, Object> changes = new LinkedHashMap<>();
            if (Files.isSymbolicLink(path)) {
                if (Path.of(Files.readSymbolicLink(path).toString()).normalize().equals(Path.of(target).normalize())) {
                    if (owns(path, owner)) {
                        return StateResult.ok("Symlink " + name + " is present and owned by " + ownership);
                    }
                    if (setOwner(path, owner)) {
                        changes.put("ownership", ownership);
                        return StateResult.changed(changes, "Set ownership of symlink " + name + " to " + ownership);
                    }
                    return StateResult.failed("Failed to set ownership of symlink " + name + " to " + ownership);
                }
                Files.delete(path);
            } else if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
                String backupname = call.string("backupname");
                if (backupname != null) {
                    Path backup = Path.of(backupname);
                    if (!backup.isAbsolute()) {
                        if (backupname.contains("/")) {
                            return StateResult.failed("Backupname must be an absolute path or a file name: " + backupname);
                        }
                        backup = path.getParent().resolve(backupname);
                    }
                    if (Files.exists(backup, LinkOption.NOFOLLOW_LINKS)) {
                        if (!force) {
                            return StateResult.failed("Symlink & backup dest exists and Force not set. " + name + " -> "
                                    + target + " - backup: " + backup);
                        }
                        DirectoryTree.remove(backup);
                    }
                    Files.move(path, backup);
                } else if (!force) {
                    String kind = Files.isRegularFile(path) ? "File" : Files.isDirectory(path) ? "Directory"
                            : "File system entry";
                    return StateResult.failed(kind + " exists where the symlink " + name + " should be");
                } else if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                    // Salt's file.symlink unlinks what is there, which fails for a folder
                    return StateResult.failed("Unable to create new symlink " + name + " -> " + target
                            + ": [Errno 21] Is a directory: '" + name + "'");
                } else {
                    Files.delete(path);
                }
            }
            Files.createSymbolicLink(path, Path.of(target));
            changes.put("new", name);
            String created = "Created new symlink " + name + " -> " + target;
            if (!owns(path, owner) && !setOwner(path, owner)) {
                return new StateResult(false, changes, created + ", but was unable to set ownership to " + ownership);
            }
            return StateResult.changed(changes, created);
        } catch (IOException e) {
            return StateResult.failed("Unable to create new symlink " + name + " -> " + target + ": " + e);
        }
    }

    /** Salt's {@code _symlink_check}: the test-mode result, comment and changes. */
    private static StateResult check(Path path, String target, boolean force, Perms owner) throws IOException {
        String name = path.toString();
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return StateResult.wouldChange(Map.of("new", name), "Symlink " + name + " to " + target + " is set for creation");
        }
        if (Files.isSymbolicLink(path)) {
            if (!Files.readSymbolicLink(path).toString().equals(target)) {
                return StateResult.wouldChange(Map.of("change", name), "Link " + name + " target is set to be changed to "
                        + target);
            }
            String msg = "The symlink " + name + " is present";
            if (owns(path, owner)) {
                return StateResult.ok(msg);
            }
            String current = current(path);
            return StateResult.wouldChange(Map.of("ownership", current), msg + ", but the ownership of the symlink would "
                    + "be changed from " + current + " to " + owner.user() + ":" + owner.group());
        }
        if (force) {
            return StateResult.wouldChange(Map.of(), "The file or directory " + name + " is set for removal to make way "
                    + "for a new symlink targeting " + target);
        }
        return StateResult.failed("File or directory exists where the symlink " + name + " should be. Did you mean to "
                + "use force?");
    }

    /** Salt's {@code _check_symlink_ownership}: the link's owner and group names equal the wanted ones. */
    private static boolean owns(Path link, Perms owner) throws IOException {
        return current(link).equals(owner.user() + ":" + owner.group());
    }

    private static String current(Path link) throws IOException {
        PosixFileAttributes attrs = Files.readAttributes(link, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        return attrs.owner().getName() + ":" + attrs.group().getName();
    }

    private static boolean setOwner(Path link, Perms owner) throws IOException {
        try {
            Files.setAttribute(link, "unix:uid", Perms.uid(owner.user()).intValue(), LinkOption.NOFOLLOW_LINKS);
            Files.setAttribute(link, "unix:gid", Perms.gid(owner.group()).intValue(), LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | RuntimeException e) {
            return false; // Salt's lchown failing: the check below says so
        }
        return owns(link, owner);
    }

    /** The name of a user's primary group (Salt's {@code file.gid_to_group(user.info(user)["gid"])}). */
    static String primaryGroup(String user) {
        AccountDatabase accounts = AccountDatabase.system();
        long gid = accounts.user(user).map(u -> u.gid()).orElse(0L); // Salt: user.info of no user is {}, gid 0
        return accounts.groups().stream().filter(g -> g.gid() == gid).map(GroupEntry::name).findFirst().orElse(null);
    }

}
