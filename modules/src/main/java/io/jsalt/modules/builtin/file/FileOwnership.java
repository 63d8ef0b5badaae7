package io.jsalt.modules.builtin.file;

import io.jsalt.modules.api.CommandExecutionException;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.attribute.UserPrincipalNotFoundException;

/** Changes a path's owner and group by name or number; a symbolic link itself unless asked to follow it. */
public final class FileOwnership {

    private FileOwnership() {
    }

    /**
     * Sets the owner and/or group (null leaves one as it is).
     *
     * @throws CommandExecutionException with Salt's "User does not exist" / "Group does not exist"
     */
    public static void change(Path path, String user, String group, boolean followSymlinks) throws IOException {
        UserPrincipalLookupService lookup = FileSystems.getDefault().getUserPrincipalLookupService();
        StringBuilder errors = new StringBuilder();
        UserPrincipal owner = null;
        GroupPrincipal groupPrincipal = null;
        if (user != null && !user.isEmpty()) {
            try {
                owner = lookup.lookupPrincipalByName(user);
            } catch (UserPrincipalNotFoundException e) {
                errors.append("User does not exist: ").append(user).append('\n');
            }
        }
        if (group != null && !group.isEmpty()) {
            try {
                groupPrincipal = lookup.lookupPrincipalByGroupName(group);
            } catch (UserPrincipalNotFoundException e) {
                errors.append("Group does not exist: ").append(group).append('\n');
            }
        }
        if (errors.length() > 0) {
            throw new CommandExecutionException(errors.toString().strip());
        }
        LinkOption[] options = followSymlinks ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
        PosixFileAttributeView view = java.nio.file.Files.getFileAttributeView(path, PosixFileAttributeView.class,
                options);
        if (owner != null) {
            view.setOwner(owner);
        }
        if (groupPrincipal != null) {
            view.setGroup(groupPrincipal);
        }
    }
}
