package io.jsalt.minion.supervisor;

import io.jsalt.config.ConfigException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The programs defined by {@code supervisor.add} (pushed from the master), kept in a folder of the minion's own
 * ({@code <cachedir>/supervisor/programs}, 0700): one Supervisor ini file per program, {@code <program>.conf}
 * (0600), read with the others at every start and every update. A program name is a file name here, so it is
 * held to Supervisor's process-name characters; a value cannot hold a line break (it would add a section).
 */
final class PushedPrograms {
    static final Pattern PROGRAM = Pattern.compile("[A-Za-z0-9_.@-]{1,100}");
    private static final Pattern KEY = Pattern.compile("[a-z][a-z_]{0,63}");

    private final Path dir;

    PushedPrograms(Path dir) {
        this.dir = dir;
    }

    Path dir() {
        return dir;
    }

    Path file(String program) {
        requireName(program);
        return dir.resolve(program + ".conf");
    }

    boolean has(String program) {
        return PROGRAM.matcher(program).matches() && Files.isRegularFile(dir.resolve(program + ".conf"));
    }

    static void requireName(String program) {
        if (program == null || !PROGRAM.matcher(program).matches() || program.equals(".") || program.equals("..")) {
            throw new IllegalArgumentException("name: expected 1 to 100 letters, digits or _ . @ -, got \"" + program + "\"");
        }
    }

    /** The keys as they will be written: checked for names and line breaks, in a stable order. */
    static Map<String, String> checked(Map<String, ?> keys) {
        Map<String, String> out = new TreeMap<>();
        keys.forEach((k, v) -> {
            if (!KEY.matcher(k).matches()) {
                throw new IllegalArgumentException(k + ": not a Supervisor program key");
            }
            String value = String.valueOf(v);
            if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0 || value.indexOf('\0') >= 0) {
                throw new IllegalArgumentException(k + ": a value cannot hold a line break or NUL");
            }
            out.put(k, value);
        });
        return out;
    }

    /** Writes the program's file (replacing the one it had), atomically. */
    void write(String program, Map<String, String> keys) {
        StringBuilder text = new StringBuilder("; written by supervisor.add: supervisor.remove deletes it\n")
                .append("[program:").append(program).append("]\n");
        keys.forEach((k, v) -> text.append(k).append(" = ").append(v).append('\n'));
        writePrivately(program, text.toString());
    }

    /** The file replaced atomically through a 0600 temporary one: an {@code environment=} may hold secrets. */
    private void writePrivately(String program, String text) {
        Path file = file(program);
        try {
            if (!Files.isDirectory(dir)) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            Path tmp = Files.createTempFile(dir, "." + program, ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try {
                Files.writeString(tmp, text, StandardCharsets.UTF_8);
                try {
                    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new ConfigException(file, "cannot write the program's file: " + e.getMessage(), e);
        }
    }

    /** The file's text, to put back when what follows its write fails; null when there is none. */
    String read(String program) {
        Path file = file(program);
        try {
            return Files.isRegularFile(file) ? Files.readString(file) : null;
        } catch (IOException e) {
            throw new ConfigException(file, "cannot read the program's file: " + e.getMessage(), e);
        }
    }

    /** Puts back what {@link #read} returned (null: no file). */
    void restore(String program, String text) {
        try {
            if (text == null) {
                Files.deleteIfExists(file(program));
            } else {
                writePrivately(program, text);
            }
        } catch (IOException e) {
            throw new ConfigException(file(program), "cannot restore the program's file: " + e.getMessage(), e);
        }
    }

    void delete(String program) {
        restore(program, null);
    }
}
