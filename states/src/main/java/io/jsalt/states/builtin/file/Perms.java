package io.jsalt.states.builtin.file;

import io.jsalt.modules.builtin.accounts.AccountDatabase;
import io.jsalt.modules.builtin.file.FileModes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The owner, group and mode a state wants on a path, compared and applied as Salt's {@code file.check_perms} and
 * {@code file.check_file_meta} do. A user or group given as a number (YAML {@code user: 65534}) is an id and is
 * compared with the path's uid; given as text it is a name (Salt's {@code user == cur["user"] or user ==
 * cur["uid"]}, where a string never equals an int). The changes name the value as the SLS gave it.
 *
 * @param mode the wanted permission bits, or null to leave them
 */
public record Perms(Object user, Object group, Integer mode) {

    public static final Perms NONE = new Perms(null, null, null);

    /** From a state's arguments; a mode given as {@code 644}, {@code "0644"} or {@code "0o644"}. */
    public static Perms of(Object user, Object group, Object mode) {
        return new Perms(owner(user), owner(group), mode == null ? null : FileModes.parse(mode));
    }

    private static Object owner(Object value) {
        if (value instanceof Number n) {
            return n.longValue();
        }
        return value == null ? null : String.valueOf(value);
    }

    public Perms withMode(Integer other) {
        return new Perms(user, group, other);
    }

    /**
     * Salt's {@code _check_user}: {@code User x is not available Group y is not available}, or null when both
     * exist. A numeric id always exists, as Salt's {@code user_to_uid} returns an int as it is.
     */
    public String unavailable() {
        StringBuilder err = new StringBuilder();
        if (truthy(user) && uid(user) == null) {
            err.append("User ").append(user).append(" is not available ");
        }
        if (truthy(group) && gid(group) == null) {
            err.append("Group ").append(group).append(" is not available");
        }
        return err.length() == 0 ? null : err.toString();
    }

    /** Salt's {@code check_file_meta}: the user, group and mode that differ on an existing path (test mode). */
    public void predict(Path path, boolean follow, Map<String, Object> changes) throws IOException {
        Owner cur = Owner.of(path, follow);
        if (user != null && !cur.isUser(user)) {
            changes.put("user", user);
        }
        if (group != null && !cur.isGroup(group)) {
            changes.put("group", group);
        }
        if (mode != null && !(cur.link() && !follow) && mode != cur.mode()) {
            changes.put("mode", FileModes.format(mode));
        }
    }

    /**
     * Salt's {@code check_perms}: changes what differs, then reports in {@code changes} what it changed
     * ({@code user}, {@code group}, {@code mode}); in test mode it only reports.
     *
     * @return Salt's failure lines ({@code Failed to change user to x}); empty when all went well
     */
    public List<String> apply(Path path, boolean follow, boolean test, Map<String, Object> changes) throws IOException {
        LinkOption[] options = follow ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
        Owner cur = Owner.of(path, follow);
        List<String> errors = new ArrayList<>();
        boolean chownUser = truthy(user) && !cur.isUser(user);
        boolean chownGroup = truthy(group) && !cur.isGroup(group);
        if ((chownUser || chownGroup) && !test) {
            Long uid = chownUser ? uid(user) : null;
            Long gid = chownGroup ? gid(group) : null;
            if (chownUser && uid == null) {
                errors.add("User does not exist");
            } else if (chownGroup && gid == null) {
                errors.add("Group does not exist");
            } else {
                if (uid != null) {
                    Files.setAttribute(path, "unix:uid", uid.intValue(), options);
                }
                if (gid != null) {
                    Files.setAttribute(path, "unix:gid", gid.intValue(), options);
                }
                if (!cur.link()) {
                    FileModes.apply(path, cur.mode()); // chown(2) clears setuid/setgid; Salt sets the old mode again
                }
            }
        }
        boolean chmod = false;
        if (mode != null && !test && !(cur.link() && !follow) && mode != cur.mode()) {
            FileModes.apply(path, mode);
            chmod = true;
        }
        Owner post = Owner.of(path, follow);
        if (truthy(user)) {
            if (!post.isUser(user)) {
                if (test) {
                    changes.put("user", user);
                } else {
                    errors.add("Failed to change user to " + user);
                }
            } else if (chownUser) {
                changes.put("user", user);
            }
        }
        if (truthy(group)) {
            if (!post.isGroup(group)) {
                if (test) {
                    changes.put("group", group);
                } else {
                    errors.add("Failed to change group to " + group);
                }
            } else if (chownGroup) {
                changes.put("group", group);
            }
        }
        if (mode != null && !(post.link() && !follow)) {
            if (mode != post.mode()) {
                if (test) {
                    changes.put("mode", FileModes.format(mode));
                } else {
                    errors.add("Failed to change mode to " + FileModes.format(mode));
                }
            } else if (chmod) {
                changes.put("mode", FileModes.format(mode));
            }
        }
        return errors;
    }

    /** Python's truth of a user or group: None, '' and 0 are not set (Salt's {@code if user:}). */
    static boolean truthy(Object owner) {
        return owner != null && !"".equals(owner) && !Long.valueOf(0).equals(owner);
    }

    /** The uid a user argument means: the number itself, or the named user's uid; null when there is no such user. */
    static Long uid(Object user) {
        if (user instanceof Long id) {
            return id;
        }
        return AccountDatabase.system().user(String.valueOf(user)).map(u -> u.uid()).orElse(null);
    }

    static Long gid(Object group) {
        if (group instanceof Long id) {
            return id;
        }
        return AccountDatabase.system().group(String.valueOf(group)).map(g -> g.gid()).orElse(null);
    }

    /** A path's owner and mode as Salt's {@code file.stats} gives them. */
    record Owner(String user, long uid, String group, long gid, int mode, boolean link) {
        static Owner of(Path path, boolean follow) throws IOException {
            boolean link = Files.isSymbolicLink(path);
            LinkOption[] options = follow && Files.exists(path) ? new LinkOption[0]
                    : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
            var attrs = Files.readAttributes(path, java.nio.file.attribute.PosixFileAttributes.class, options);
            long uid = ((Number) Files.getAttribute(path, "unix:uid", options)).longValue();
            long gid = ((Number) Files.getAttribute(path, "unix:gid", options)).longValue();
            return new Owner(attrs.owner().getName(), uid, attrs.group().getName(), gid,
                    FileModes.of(path, options), link && !(follow && Files.exists(path)));
        }

        boolean isUser(Object wanted) {
            return wanted instanceof Long id ? id == uid : String.valueOf(wanted).equals(user);
        }

        boolean isGroup(Object wanted) {
            return wanted instanceof Long id ? id == gid : String.valueOf(wanted).equals(group);
        }
    }
}
