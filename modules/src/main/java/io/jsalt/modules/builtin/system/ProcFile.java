package io.jsalt.modules.builtin.system;

import io.jsalt.modules.api.CommandExecutionException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads a kernel-provided text file (/proc, /etc) and turns a failure into the module layer's
 * {@link CommandExecutionException}, so a function answers {@code ERROR: ...} instead of a stack trace.
 */
public final class ProcFile {

    private ProcFile() {
    }

    public static String read(Path path) {
        try {
            return Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new CommandExecutionException("Unable to read " + path + ": " + e.getMessage(), e);
        }
    }

    public static List<String> lines(Path path) {
        return read(path).lines().toList();
    }
}
