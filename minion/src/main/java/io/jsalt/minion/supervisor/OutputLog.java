package io.jsalt.minion.supervisor;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A process's output log with Supervisor's rotation: when a write would take the file past {@code maxbytes}
 * it becomes {@code file.1} (the older ones shift up to {@code file.<backups>}, the oldest is dropped); with
 * no backups the file starts over. Created 0600: a program's output may carry secrets.
 *
 * <p>{@link #pump} runs on a thread of its own per stream (a blocking read is the only portable way to get a
 * child's output in Java); writes are not shared, so the class needs no lock.
 */
final class OutputLog {
    private static final Logger log = LoggerFactory.getLogger(OutputLog.class);
    private static final int CHUNK = 8192;

    private final ProgramConfig.LogSettings settings;
    private OutputStream out;
    private long size;

    OutputLog(ProgramConfig.LogSettings settings) {
        this.settings = settings;
    }

    /**
     * The log, its file created (0600) and opened now, as Supervisor does at spawn: a log that cannot be written
     * is a spawn error, not a silent loss of the output later.
     */
    static OutputLog open(ProgramConfig.LogSettings settings) throws IOException {
        OutputLog log = new OutputLog(settings);
        if (settings.file() != null) {
            log.open();
        }
        return log;
    }

    /** Starts a daemon thread copying {@code stream} into this log until the process closes it. */
    Thread pump(InputStream stream, String threadName) {
        Thread t = new Thread(() -> copy(stream), threadName);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Closes the file of a log that never got its stream (the process did not start). */
    void abandon() {
        closeFile();
    }

    private void copy(InputStream stream) {
        byte[] buffer = new byte[CHUNK];
        try (stream) {
            int n;
            while ((n = stream.read(buffer)) >= 0) {
                write(buffer, n);
            }
        } catch (IOException e) {
            log.warn("output of {} no longer written: {}", settings.file(), e.toString());
        } finally {
            closeFile();
        }
    }

    void write(byte[] buffer, int length) throws IOException {
        if (settings.file() == null) {
            return; // NONE: read and dropped, so the child never blocks on a full pipe
        }
        int offset = 0;
        while (offset < length) {
            if (out == null) {
                open();
            }
            int room = settings.maxbytes() <= 0 ? length - offset : (int) Math.min(length - offset, settings.maxbytes() - size);
            if (room <= 0) {
                rotate();
                continue;
            }
            out.write(buffer, offset, room);
            out.flush();
            size += room;
            offset += room;
        }
    }

    private void open() throws IOException {
        Path file = settings.file();
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        if (!Files.exists(file)) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        out = Files.newOutputStream(file, StandardOpenOption.APPEND);
        size = Files.size(file);
    }

    private void rotate() throws IOException {
        closeFile();
        Path file = settings.file();
        if (settings.backups() <= 0) {
            Files.newOutputStream(file, StandardOpenOption.TRUNCATE_EXISTING).close(); // Supervisor: start over
        } else {
            for (int i = settings.backups() - 1; i >= 1; i--) {
                Path from = backup(file, i);
                if (Files.exists(from)) {
                    Files.move(from, backup(file, i + 1), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Files.move(file, backup(file, 1), StandardCopyOption.REPLACE_EXISTING);
        }
        open();
    }

    static Path backup(Path file, int n) {
        return file.resolveSibling(file.getFileName() + "." + n);
    }

    private void closeFile() {
        if (out != null) {
            try {
                out.close();
            } catch (IOException e) {
                log.debug("closing {}: {}", settings.file(), e.toString());
            }
            out = null;
        }
    }
}
