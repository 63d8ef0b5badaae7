package io.jsalt.states.builtin.file;

import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;

/**
 * Salt's {@code file.exists}, {@code file.missing} and {@code file.touch}: whether a path is there, and making it
 * (or giving it times) without touching its content.
 */
public final class PathStates {
    private PathStates() {
    }

    public static StateResult exists(StateCall call) {
        call.allowOnly("file.exists", List.of());
        String name = call.name();
        if (!Files.exists(Path.of(name), LinkOption.NOFOLLOW_LINKS) && !Files.exists(Path.of(name))) {
            return StateResult.failed("Specified path " + name + " does not exist");
        }
        return StateResult.ok("Path " + name + " exists");
    }

    public static StateResult missing(StateCall call) {
        call.allowOnly("file.missing", List.of());
        String name = call.name();
        if (Files.exists(Path.of(name))) {
            return StateResult.failed("Specified path " + name + " exists");
        }
        return StateResult.ok("Path " + name + " is missing");
    }

    /** Salt's {@code file.touch}: {@code atime}/{@code mtime} are seconds since the epoch, both now by default. */
    public static StateResult touch(StateCall call) {
        call.allowOnly("file.touch", List.of("atime", "mtime", "makedirs"));
        String name = call.name();
        Path path = Path.of(name);
        if (!path.isAbsolute()) {
            return StateResult.failed("Specified file " + name + " is not an absolute path");
        }
        Long atime = seconds(call.args().get("atime"));
        Long mtime = seconds(call.args().get("mtime"));
        try {
            if (call.test()) {
                return predictTouch(path, atime, mtime);
            }
            if (call.flag("makedirs", false) && !Files.isDirectory(path.getParent())) {
                FileWrites.makeDirs(path.getParent(), Perms.NONE);
            }
            if (!Files.isDirectory(path.getParent())) {
                return StateResult.failed("Directory not present to touch file " + name);
            }
            boolean extant = Files.exists(path);
            if (!extant) {
                FileWrites.write(path, new byte[0], FileWrites.newFileMode(FileWrites.umask()));
            }
            long now = System.currentTimeMillis();
            Files.getFileAttributeView(path, java.nio.file.attribute.BasicFileAttributeView.class).setTimes(
                    FileTime.fromMillis(mtime != null ? mtime * 1000 : now), FileTime.fromMillis(atime != null
                            ? atime * 1000 : now), null);
            if (!extant) {
                return StateResult.changed(Map.of("new", name), "Created empty file " + name);
            }
            return StateResult.changed(Map.of("touched", name), "Updated times on "
                    + (Files.isDirectory(path) ? "directory " : "file ") + name);
        } catch (IOException e) {
            return StateResult.failed("Unable to touch " + name + ": " + e);
        }
    }

    /**
     * Salt's {@code _check_touch}. Salt compares the given times as text with the file's float times
     * ({@code "1700000000" != "1700000000.0"}), so given times always read as a change; without them, an existing
     * file keeps Salt's default changes {@code {new: name}} with result True.
     */
    private static StateResult predictTouch(Path path, Long atime, Long mtime) {
        String name = path.toString();
        if (!Files.exists(path)) {
            return StateResult.wouldChange(Map.of("new", name), "File " + name + " is set to be created");
        }
        if (atime != null || mtime != null) {
            return StateResult.wouldChange(Map.of("touched", name), "Times set to be updated on file " + name);
        }
        return new StateResult(true, Map.of("new", name), "File " + name + " exists and has the correct times");
    }

    private static Long seconds(Object value) {
        if (value == null) {
            return null;
        }
        return value instanceof Number n ? n.longValue() : Long.valueOf(String.valueOf(value).strip());
    }
}
