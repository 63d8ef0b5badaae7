package io.jsalt.modules.builtin.cmd;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

/** Finds a program the way a shell does: a name with a slash is a path, anything else is looked up in PATH. */
public final class ExecutablePath {

    private ExecutablePath() {
    }

    /** The program's absolute path, if it exists and is executable. */
    public static Optional<Path> find(String name, String searchPath) {
        if (name == null || name.isEmpty()) {
            return Optional.empty();
        }
        try {
            if (name.contains("/")) {
                Path path = Path.of(name).toAbsolutePath();
                return isExecutable(path) ? Optional.of(path) : Optional.empty();
            }
            for (String dir : (searchPath == null ? "" : searchPath).split(Pattern.quote(":"))) {
                if (dir.isEmpty()) {
                    continue;
                }
                Path candidate = Path.of(dir, name);
                if (isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        } catch (InvalidPathException e) {
            // a name with a NUL byte names nothing
        }
        return Optional.empty();
    }

    private static boolean isExecutable(Path path) {
        return Files.isRegularFile(path) && Files.isExecutable(path);
    }
}
