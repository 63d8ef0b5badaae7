package io.jsalt.modules.builtin.file;

import io.jsalt.modules.api.CommandExecutionException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Turns the JDK's terse I/O exceptions (a {@code NoSuchFileException}'s message is just the path) into
 * messages an operator can act on.
 */
public final class FileErrors {

    private FileErrors() {
    }

    /** A {@link CommandExecutionException} saying what failed on which path and why. */
    public static CommandExecutionException failure(String action, Object path, IOException e) {
        return new CommandExecutionException("Unable to " + action + " " + path + ": " + reason(e), e);
    }

    /** Why an I/O operation failed, in words. */
    public static String reason(IOException e) {
        if (e instanceof NoSuchFileException missing) {
            return "No such file or directory: " + missing.getFile();
        }
        if (e instanceof AccessDeniedException denied) {
            return "Permission denied: " + denied.getFile();
        }
        if (e instanceof FileAlreadyExistsException exists) {
            return "File exists: " + exists.getFile();
        }
        if (e instanceof DirectoryNotEmptyException notEmpty) {
            return "Directory not empty: " + notEmpty.getFile();
        }
        if (e instanceof NotDirectoryException notDir) {
            return "Not a directory: " + notDir.getFile();
        }
        if (e instanceof FileSystemException fs) {
            return (fs.getReason() == null ? e.getClass().getSimpleName() : fs.getReason())
                    + (fs.getFile() == null ? "" : ": " + fs.getFile());
        }
        String message = e.getMessage();
        return message == null ? e.getClass().getSimpleName() : message;
    }
}
