package io.jsalt.states.builtin.file;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.file.DirectoryTree;
import io.jsalt.modules.builtin.file.FileModes;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Salt's {@code file.copy} and {@code file.rename}: a file (or folder) on the minion copied or moved to
 * {@code name}, which is left alone when it exists unless {@code force} is set; changes {@code {name: source}}.
 */
public final class CopyStates {
    private CopyStates() {
    }

    public static StateResult copy(StateCall call) {
        call.allowOnly("file.copy", List.of("source", "force", "makedirs", "preserve", "user", "group", "mode", "dir_mode",
                "subdir"));
        String source = call.string("source");
        if (source == null) {
            return StateResult.failed("file.copy() missing 1 required positional argument: 'source'");
        }
        Path src = Path.of(source);
        Path name = Path.of(call.name());
        String copied = "Copied \"" + source + "\" to \"" + call.name() + "\"";
        if (!name.isAbsolute()) {
            return StateResult.failed("Specified file " + call.name() + " is not an absolute path");
        }
        if (!Files.exists(src)) {
            return StateResult.failed("Source file \"" + source + "\" is not present");
        }
        boolean force = call.flag("force", false);
        try {
            Perms perms;
            if (call.flag("preserve", false)) {
                Perms.Owner owner = Perms.Owner.of(src, true);
                perms = new Perms(owner.user(), owner.group(), owner.mode());
            } else {
                Object user = call.args().get("user") != null ? call.args().get("user") : System.getProperty("user.name");
                Object group = call.args().get("group") != null ? call.args().get("group")
                        : SymlinkState.primaryGroup(String.valueOf(user));
                perms = Perms.of(user, group, call.args().get("mode") != null ? call.args().get("mode")
                        : FileModes.format(FileModes.of(src)));
                String unavailable = perms.unavailable();
                if (unavailable != null) {
                    return StateResult.failed(unavailable);
                }
            }
            if (Files.isDirectory(name) && call.flag("subdir", false)) {
                name = name.resolve(src.getFileName().toString());
            }
            boolean changed = true;
            if (Files.exists(name, LinkOption.NOFOLLOW_LINKS)) {
                if (force && Files.isRegularFile(name) && Files.isRegularFile(src)
                        && Arrays.equals(Files.readAllBytes(name), Files.readAllBytes(src))) {
                    copied += " - files are identical but force flag is set";
                }
                changed = force;
                if (force && !call.test()) {
                    DirectoryTree.remove(name);
                }
            }
            if (!changed) {
                return StateResult.ok("The target file \"" + name + "\" exists and will not be overwritten");
            }
            if (call.test()) {
                return StateResult.wouldChange(Map.of(), "File \"" + source + "\" is set to be copied to \"" + name + "\"");
            }
            Path dir = name.getParent();
            if (!Files.isDirectory(dir)) {
                if (!call.flag("makedirs", false)) {
                    return StateResult.failed("The target directory " + dir + " is not present");
                }
                FileWrites.makeDirs(dir, new Perms(perms.user(), perms.group(), ManagedState.dirMode(call, perms.mode())));
            }
            if (Files.isDirectory(src)) {
                DirectoryTree.copy(src, name); // shutil.copytree(symlinks=True): modes and times kept, links as links
                for (Walk w : Walk.of(name)) {
                    for (String entry : concat(w.dirs(), w.files())) {
                        new Perms(perms.user(), perms.group(), null).apply(w.root().resolve(entry), false, false,
                                new LinkedHashMap<>()); // Salt's lchown of each entry, not reported
                    }
                }
            } else {
                Files.copy(src, name); // shutil.copy: the content and the mode bits
                FileModes.apply(name, FileModes.of(src));
            }
            Map<String, Object> changes = new LinkedHashMap<>();
            changes.put(name.toString(), source);
            // Salt applies owner and mode only without preserve (with it, the copy keeps the minion's user)
            if (!call.flag("preserve", false)) {
                List<String> errors = perms.apply(name, true, false, changes);
                if (!errors.isEmpty()) {
                    return new StateResult(false, changes, copied + "; " + String.join("; ", errors));
                }
            }
            return StateResult.changed(changes, copied);
        } catch (IOException | CommandExecutionException e) {
            return StateResult.failed("Failed to copy \"" + source + "\" to \"" + name + "\"");
        }
    }

    public static StateResult rename(StateCall call) {
        call.allowOnly("file.rename", List.of("source", "force", "makedirs"));
        String source = call.string("source");
        if (source == null) {
            return StateResult.failed("file.rename() missing 1 required positional argument: 'source'");
        }
        Path src = Path.of(source);
        String name = call.name();
        Path dest = Path.of(name);
        if (!dest.isAbsolute()) {
            return StateResult.failed("Specified file " + name + " is not an absolute path");
        }
        if (!Files.exists(src, LinkOption.NOFOLLOW_LINKS)) {
            return StateResult.ok("Source file \"" + source + "\" has already been moved out of place");
        }
        try {
            if (Files.exists(dest, LinkOption.NOFOLLOW_LINKS)) {
                if (!call.flag("force", false)) {
                    return StateResult.ok("The target file \"" + name + "\" exists and will not be overwritten");
                }
                if (!call.test()) {
                    DirectoryTree.remove(dest);
                }
            }
            if (call.test()) {
                return StateResult.wouldChange(Map.of(), "File \"" + source + "\" is set to be moved to \"" + name + "\"");
            }
            if (!Files.isDirectory(dest.getParent())) {
                if (!call.flag("makedirs", false)) {
                    return StateResult.failed("The target directory " + dest.getParent() + " is not present");
                }
                FileWrites.makeDirs(dest.getParent(), Perms.NONE);
            }
            Files.move(src, dest);
            return StateResult.changed(Map.of(name, source), "Moved \"" + source + "\" to \"" + name + "\"");
        } catch (IOException e) {
            return StateResult.failed("Failed to move \"" + source + "\" to \"" + name + "\"");
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new java.util.ArrayList<>(a);
        all.addAll(b);
        return all;
    }

}
