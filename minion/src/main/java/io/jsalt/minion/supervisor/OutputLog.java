package io.jsalt.minion.supervisor;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A process's output log. The process writes into the file itself (opened for appending when it is started):
 * no pipe to the minion, so a process outlives its minion without dying of SIGPIPE or blocking on a full
 * pipe, and its output written while no minion runs is kept. Created 0600: a program's output may carry secrets.
 *
 * <p>Rotation is done from outside, by copy and truncate (logrotate's {@code copytruncate}): the process
 * keeps its file open, so moving the file away would only rename what it writes into. When the file has grown
 * past {@code maxbytes} it is copied to {@code file.1} (the older ones shift up to {@code file.<backups>}, the
 * oldest is dropped; with no backups nothing is kept) and cut to zero; the process's next write, being an
 * append, lands at the new start. The size is looked at every second while the file grows ({@link RotationWatch}),
 * so a file can pass {@code maxbytes} by what is written in a second, and what is written between the copy and
 * the cut is lost.
 */
final class OutputLog {
    private OutputLog() {
    }

    /**
     * Where the process's stream goes: its log file, created (0600) now as Supervisor does at spawn, so a log
     * that cannot be written is a spawn error, not a silent loss of the output later; NONE: {@code /dev/null}.
     */
    static ProcessBuilder.Redirect open(ProgramConfig.LogSettings settings) throws IOException {
        Path file = settings.file();
        if (file == null) {
            return ProcessBuilder.Redirect.DISCARD;
        }
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        if (!Files.exists(file)) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        if (!Files.isWritable(file)) {
            throw new IOException(file + " is not writable");
        }
        return ProcessBuilder.Redirect.appendTo(file.toFile());
    }

    /**
     * Rotates the log when it has grown past its {@code maxbytes} ({@code 0}: never).
     *
     * @return whether it was rotated
     */
    static boolean rotateIfOver(ProgramConfig.LogSettings settings) throws IOException {
        Path file = settings.file();
        if (file == null || settings.maxbytes() <= 0 || !Files.isRegularFile(file) || Files.size(file) <= settings.maxbytes()) {
            return false;
        }
        if (settings.backups() > 0) {
            for (int i = settings.backups() - 1; i >= 1; i--) {
                Path from = backup(file, i);
                if (Files.exists(from)) {
                    Files.move(from, backup(file, i + 1), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Path first = backup(file, 1);
            Files.deleteIfExists(first);
            Files.createFile(first, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try (OutputStream out = Files.newOutputStream(first, StandardOpenOption.WRITE)) {
                Files.copy(file, out);
            }
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(0);
        }
        return true;
    }

    static Path backup(Path file, int n) {
        return file.resolveSibling(file.getFileName() + "." + n);
    }
}
