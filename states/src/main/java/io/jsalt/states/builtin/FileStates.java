package io.jsalt.states.builtin;

import io.jsalt.states.StatesException;
import io.jsalt.states.builtin.file.AppendState;
import io.jsalt.states.builtin.file.BlockReplaceState;
import io.jsalt.states.builtin.file.CommentStates;
import io.jsalt.states.builtin.file.CopyStates;
import io.jsalt.states.builtin.file.DirectoryState;
import io.jsalt.states.builtin.file.LineState;
import io.jsalt.states.builtin.file.ManagedState;
import io.jsalt.states.builtin.file.PathStates;
import io.jsalt.states.builtin.file.PrependState;
import io.jsalt.states.builtin.file.RecurseState;
import io.jsalt.states.builtin.file.ReplaceState;
import io.jsalt.states.builtin.file.SymlinkState;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateFunctions;
import io.jsalt.states.run.StateResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Salt's {@code file} states: {@code managed}, {@code directory}, {@code absent}, {@code symlink}, {@code line},
 * {@code replace}, {@code append}, {@code prepend}, {@code recurse}, {@code exists}, {@code missing}, {@code touch},
 * {@code copy}, {@code rename}, {@code comment}, {@code uncomment}, {@code blockreplace} (each but absent in a class
 * of {@code builtin.file}).
 */
public final class FileStates {
    private FileStates() {
    }

    public static void register(StateFunctions functions) {
        functions.add("file.managed", ManagedState::run)
                .add("file.directory", DirectoryState::run)
                .add("file.absent", FileStates::absent)
                .add("file.symlink", SymlinkState::run)
                .add("file.line", LineState::run)
                .add("file.replace", ReplaceState::run)
                .add("file.append", AppendState::run)
                .add("file.prepend", PrependState::run)
                .add("file.recurse", RecurseState::run)
                .add("file.exists", PathStates::exists)
                .add("file.missing", PathStates::missing)
                .add("file.touch", PathStates::touch)
                .add("file.copy", CopyStates::copy)
                .add("file.rename", CopyStates::rename)
                .add("file.comment", CommentStates::comment)
                .add("file.uncomment", CommentStates::uncomment)
                .add("file.blockreplace", BlockReplaceState::run);
    }

    static StateResult managed(StateCall call) {
        return ManagedState.run(call);
    }

    static StateResult directory(StateCall call) {
        return DirectoryState.run(call);
    }

    static StateResult absent(StateCall call) {
        call.allowOnly("file.absent", List.of());
        Path path = absolute(call.name());
        if (path.getParent() == null) {
            return StateResult.failed("Refusing to make \"/\" absent");
        }
        boolean isDir = Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS);
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return StateResult.ok("File " + path + " is not present");
        }
        Map<String, Object> changes = Map.of("removed", path.toString());
        if (call.test()) {
            return StateResult.wouldChange(changes, (isDir ? "Directory " : "File ") + path + " is set for removal");
        }
        try {
            if (isDir) {
                try (Stream<Path> tree = Files.walk(path)) {
                    for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            } else {
                Files.delete(path);
            }
            return StateResult.changed(changes, "Removed " + (isDir ? "directory " : "file ") + path);
        } catch (IOException e) {
            return StateResult.failed("Unable to remove " + path + ": " + e);
        }
    }

    private static Path absolute(String name) {
        Path path = Path.of(name);
        if (!path.isAbsolute()) {
            throw new StatesException("Specified file " + name + " is not an absolute path");
        }
        return path.normalize();
    }
}
