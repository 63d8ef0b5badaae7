package io.jsalt.states.builtin.file;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.file.DirectoryTree;
import io.jsalt.modules.builtin.file.FileModes;
import io.jsalt.states.StatesException;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Salt's {@code file.directory}: the folder, its owner, group and mode, {@code recurse} over what is in it, and
 * {@code clean}. As in Salt 3006.8, the test-mode report ({@code {path: {user, group, mode, directory, removed}}})
 * is computed first and stays in the changes of a real run, beside what {@code check_perms} changed on the folder
 * ({@code user}, {@code group}, {@code mode}) and the {@code removed} list.
 */
public final class DirectoryState {
    static final List<String> ARGS = List.of("user", "group", "mode", "dir_mode", "file_mode", "makedirs", "recurse",
            "clean", "exclude_pat", "follow_symlinks", "children_only", "force", "backupname", "allow_symlink");
    private static final List<String> RECURSE_TYPES = List.of("user", "group", "mode", "ignore_files", "ignore_dirs",
            "silent");

    private DirectoryState() {
    }

    public static StateResult run(StateCall call) {
        call.allowOnly("file.directory", ARGS);
        String name = call.name();
        if (name.length() > 1 && name.endsWith("/")) {
            name = name.substring(0, name.length() - 1);
        }
        Object dirModeArg = call.args().get("dir_mode") != null ? call.args().get("dir_mode") : call.args().get("mode");
        Object fileModeArg = call.args().get("file_mode") != null ? call.args().get("file_mode") : dirModeArg;
        Perms dirPerms;
        Integer fileMode;
        try {
            dirPerms = Perms.of(call.args().get("user"), call.args().get("group"), dirModeArg);
            fileMode = fileModeArg == null ? null : FileModes.parse(fileModeArg);
        } catch (CommandExecutionException e) {
            return StateResult.failed(e.getMessage());
        }
        String unavailable = call.test() ? null : dirPerms.unavailable();
        if (unavailable != null) {
            return StateResult.failed(unavailable);
        }
        Path path = Path.of(name);
        if (!path.isAbsolute()) {
            return StateResult.failed("Specified file " + name + " is not an absolute path");
        }
        path = path.normalize();
        Map<String, Object> forced = new LinkedHashMap<>();
        try {
            StateResult inTheWay = inTheWay(call, path, forced);
            if (inTheWay != null) {
                return inTheWay;
            }
        } catch (IOException e) {
            return StateResult.failed("Unable to manage directory " + name + ": " + e);
        }
        boolean follow = call.flag("follow_symlinks", false);
        boolean childrenOnly = call.flag("children_only", false);
        boolean clean = call.flag("clean", false);
        Object recurse = call.args().get("recurse");
        try {
            Set<String> recurseSet = recurseSet(recurse);
            Set<Path> keep = clean ? Clean.keepOfRequired(path, call.required(), chunk -> RecurseState.keepOf(call, chunk))
                    : Set.of();
            Map<String, Object> predicted = predict(path, dirPerms, fileMode, recurseSet, clean, keep,
                    call.args().get("exclude_pat"), follow, childrenOnly);
            Map<String, Object> changes = new LinkedHashMap<>(forced);
            changes.putAll(predicted);
            if (call.test()) {
                StateResult report = predicted(path, predicted); // Salt's comment and result see only these
                return new StateResult(report.result(), changes, report.comment());
            }
            if (changes.isEmpty()) {
                return StateResult.ok("The directory " + path + " is in the correct state"); // Salt stops here
            }
            return apply(call, path, dirPerms, fileMode, recurseSet, clean, keep, follow, childrenOnly, changes);
        } catch (StatesException e) {
            return StateResult.failed(e.getMessage());
        } catch (IOException e) {
            return StateResult.failed("Unable to manage directory " + name + ": " + e);
        }
    }

    /**
     * What is where the folder should be: a file, or a link (with {@code allow_symlink: False}, or {@code force}).
     * Salt moves it to {@code backupname}, removes it with {@code force}, or fails; in test mode it says what it would
     * do.
     *
     * @return the state's result when it ends here, null to go on (after recording {@code forced}/{@code backup})
     */
    private static StateResult inTheWay(StateCall call, Path path, Map<String, Object> changes) throws IOException {
        boolean force = call.flag("force", false);
        boolean link = Files.isSymbolicLink(path);
        if (!(Files.isRegularFile(path) || (link && (!call.flag("allow_symlink", true) || force)))) {
            return null;
        }
        String name = path.toString();
        String backupname = call.string("backupname");
        if (backupname != null) {
            Path backup = Path.of(backupname);
            if (!backup.isAbsolute()) {
                return StateResult.failed("backupname must be an absolute path: " + backupname);
            }
            if (Files.exists(backup, LinkOption.NOFOLLOW_LINKS)) {
                if (!force) {
                    return StateResult.failed("File exists where the backup target " + backupname + " should go");
                }
                if (call.test()) {
                    changes.put("forced", "Existing file at backup path " + backupname + " would be removed");
                } else {
                    DirectoryTree.remove(backup);
                }
            }
            if (call.test()) {
                changes.put("backup", name + " would be renamed to " + backupname);
                changes.put(name, Map.of("directory", "new"));
                return new StateResult(null, changes, name + " would be backed up and replaced with a new directory");
            }
            Files.move(path, backup);
            return null;
        }
        if (force) {
            String what = Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS) ? "File" : link ? "Symlink" : "Directory";
            if (call.test()) {
                changes.put("forced", what + " would be forcibly replaced");
            } else {
                DirectoryTree.remove(path);
                changes.put("forced", what + " was forcibly replaced");
            }
            return null;
        }
        return StateResult.failed("Specified location " + name + " exists and is a "
                + (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS) ? "file" : "symlink"));
    }


    /** Salt's {@code _get_recurse_set}. */
    static Set<String> recurseSet(Object recurse) {
        if (recurse == null || Boolean.FALSE.equals(recurse) || (recurse instanceof List<?> l && l.isEmpty())
                || "".equals(recurse)) {
            return null;
        }
        if (!(recurse instanceof List<?> list)) {
            throw new StatesException("\"recurse\" must be formed as a list of strings");
        }
        Set<String> set = new LinkedHashSet<>();
        for (Object o : list) {
            if (!(o instanceof String s) || !RECURSE_TYPES.contains(s)) {
                throw new StatesException("Types for \"recurse\" limited to \"user\", \"group\", \"mode\", "
                        + "\"ignore_files\", \"ignore_dirs\", \"silent\".");
            }
            set.add(s);
        }
        if (set.contains("ignore_files") && set.contains("ignore_dirs")) {
            throw new StatesException("Must not specify \"recurse\" options \"ignore_files\" and \"ignore_dirs\" at the "
                    + "same time.");
        }
        return set;
    }

    /** Salt's {@code _check_directory}: what would change, keyed by path. */
    private static Map<String, Object> predict(Path name, Perms dirPerms, Integer fileMode, Set<String> recurseSet,
            boolean clean, Set<Path> keep, Object excludePat, boolean follow, boolean childrenOnly) throws IOException {
        Map<String, Object> changes = new LinkedHashMap<>();
        List<Walk> walk = (recurseSet != null || clean) && Files.isDirectory(name) ? Walk.of(name) : List.of();
        Perms perms = dirPerms;
        if (recurseSet != null) {
            // as Salt, what recurse leaves out is not checked on the folder itself either
            perms = new Perms(recurseSet.contains("user") ? dirPerms.user() : null,
                    recurseSet.contains("group") ? dirPerms.group() : null,
                    recurseSet.contains("mode") ? dirPerms.mode() : null);
            Perms filePerms = perms.withMode(recurseSet.contains("mode") ? fileMode : null);
            for (Walk w : walk) {
                if (!recurseSet.contains("ignore_files")) {
                    for (String f : w.files()) {
                        meta(w.root().resolve(f), filePerms, follow, changes);
                    }
                }
                if (!recurseSet.contains("ignore_dirs")) {
                    for (String d : w.dirs()) {
                        meta(w.root().resolve(d), perms, follow, changes);
                    }
                }
            }
        }
        if (!childrenOnly && Files.exists(name, LinkOption.NOFOLLOW_LINKS)) {
            meta(name, perms, follow, changes);
        }
        if (clean) {
            for (Walk w : walk) {
                List<String> entries = new ArrayList<>(w.files());
                entries.addAll(w.dirs());
                for (String e : entries) {
                    Path p = w.root().resolve(e);
                    // Salt's _check_changes looks for the path itself among the kept ones, not for its parents
                    if (!keep.contains(p) && IncludeExclude.check(name.relativize(p).toString(), null, excludePat)) {
                        changes.put(p.toString(), Map.of("removed", "Removed due to clean"));
                    }
                }
            }
        }
        if (!Files.isDirectory(name)) {
            changes.put(name.toString(), Map.of("directory", "new"));
        }
        return changes;
    }

    /** Salt's {@code _check_dir_meta} (and the same test for files): what differs on one path. */
    private static void meta(Path p, Perms perms, boolean follow, Map<String, Object> changes) throws IOException {
        Map<String, Object> one = new LinkedHashMap<>();
        perms.predict(p, follow, one);
        if (!one.isEmpty()) {
            changes.put(p.toString(), one);
        }
    }

    private static StateResult predicted(Path name, Map<String, Object> changes) {
        if (changes.isEmpty()) {
            return StateResult.ok("The directory " + name + " is in the correct state");
        }
        StringBuilder comment = new StringBuilder("The following files will be changed:\n");
        changes.forEach((path, change) -> ((Map<?, ?>) change).forEach((k, v) ->
                comment.append(path).append(": ").append(k).append(" - ").append(v).append('\n')));
        return StateResult.wouldChange(changes, comment.toString());
    }

    private static StateResult apply(StateCall call, Path name, Perms dirPerms, Integer fileMode, Set<String> recurseSet,
            boolean clean, Set<Path> keep, boolean follow, boolean childrenOnly, Map<String, Object> changes)
            throws IOException {
        if (!Files.isDirectory(name)) {
            if (!Files.isDirectory(name.getParent())) {
                if (!call.flag("makedirs", false)) {
                    return new StateResult(false, changes, "No directory to create " + name + " in");
                }
            }
            FileWrites.makeDirs(name, dirPerms);
            changes.put(name.toString(), Map.of("directory", "new"));
            return new StateResult(true, changes, "");
        }
        List<String> comments = new ArrayList<>();
        boolean ok = true;
        if (!childrenOnly) {
            List<String> failed = dirPerms.apply(name, follow, false, changes);
            comments.addAll(failed);
            ok = failed.isEmpty();
        }
        if (recurseSet != null) {
            Perms perms = new Perms(recurseSet.contains("user") ? dirPerms.user() : null,
                    recurseSet.contains("group") ? dirPerms.group() : null,
                    recurseSet.contains("mode") ? dirPerms.mode() : null);
            String missing = recurseOwnerMissing(recurseSet, dirPerms);
            if (missing != null) {
                return new StateResult(false, changes, missing);
            }
            if (recurseSet.contains("silent")) {
                changes.clear();
                changes.put("recursion", "Changes silenced");
            }
            Perms filePerms = perms.withMode(recurseSet.contains("mode") ? fileMode : null);
            for (Walk w : Walk.of(name)) {
                if (!recurseSet.contains("ignore_files")) {
                    for (String f : w.files()) {
                        List<String> failed = filePerms.apply(w.root().resolve(f), follow, false, changes);
                        comments.addAll(failed);
                        ok &= failed.isEmpty();
                    }
                }
                if (!recurseSet.contains("ignore_dirs")) {
                    for (String d : w.dirs()) {
                        List<String> failed = perms.apply(w.root().resolve(d), follow, false, changes);
                        comments.addAll(failed);
                        ok &= failed.isEmpty();
                    }
                }
            }
        }
        String comment = String.join("; ", comments);
        if (clean) {
            List<String> removed = Clean.clean(name, keep, call.args().get("exclude_pat"), false);
            if (!removed.isEmpty()) {
                changes.put("removed", removed);
                comment = "Files cleaned from directory " + name;
            }
        }
        if (comment.isEmpty() && !changes.isEmpty()) {
            comment = childrenOnly ? "Directory " + name + "/* updated" : "Directory " + name + " updated";
        }
        if (changes.isEmpty() && ok) {
            comment = "Directory " + name + " is in the correct state" + (comment.isEmpty() ? "" : "\n" + comment);
        }
        return new StateResult(ok, changes, comment);
    }

    /** Salt's checks that a user or group to recurse with is given and exists. */
    private static String recurseOwnerMissing(Set<String> recurseSet, Perms perms) {
        if (recurseSet.contains("user")) {
            if (perms.user() == null) {
                return "user not specified, but configured as a target for recursive ownership management";
            }
            if (Perms.uid(perms.user()) == null) {
                return "Failed to enforce ownership for user " + perms.user() + " (user does not exist)";
            }
        }
        if (recurseSet.contains("group")) {
            if (perms.group() == null) {
                return "group not specified, but configured as a target for recursive ownership management";
            }
            if (Perms.gid(perms.group()) == null) {
                return "Failed to enforce group ownership for group " + perms.group();
            }
        }
        return null;
    }
}
