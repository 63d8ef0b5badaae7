package io.jsalt.config;

import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A configuration file that cannot be used as written. The message always names the file, and the key and
 * the expected form when a single value is at fault, so an operator can fix the file without reading code:
 * {@code /etc/jsalt/master: publish_port: expected an integer 1..65535, got "abc"}.
 */
public class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** Long values are cut in messages: a log line should not carry a whole pasted blob. */
    private static final int MAX_SHOWN_CHARS = 80;

    private final transient Path file;
    private final String key;
    private final int line;

    /** A value of {@code key} in {@code file} that is not of the {@code expected} form. */
    public ConfigException(Path file, String key, String expected, Object got) {
        super(file + ": " + key + ": expected " + expected + ", got " + describe(got));
        this.file = Objects.requireNonNull(file, "file");
        this.key = Objects.requireNonNull(key, "key");
        this.line = 0;
    }

    /** A problem with the file as a whole (unreadable, not a mapping). */
    public ConfigException(Path file, String problem, Throwable cause) {
        super(file + ": " + problem, cause);
        this.file = Objects.requireNonNull(file, "file");
        this.key = null;
        this.line = 0;
    }

    /** A YAML syntax error at a 1-based line and column of {@code file}. */
    public ConfigException(Path file, int line, int column, String problem, Throwable cause) {
        super(file + ": line " + line + ", column " + column + ": " + problem, cause);
        this.file = Objects.requireNonNull(file, "file");
        this.key = null;
        this.line = line;
    }

    /** The file at fault (for configurations built in code, a label such as {@code <MinionConfig.builder>}). */
    public Path file() {
        return file;
    }

    /** The key at fault, when the problem is a single value. */
    public Optional<String> key() {
        return Optional.ofNullable(key);
    }

    /** The 1-based line of a syntax error. */
    public OptionalInt line() {
        return line > 0 ? OptionalInt.of(line) : OptionalInt.empty();
    }

    /** How a configured value is shown in a message: strings quoted, collections by kind, never in full. */
    static String describe(Object value) {
        if (value == null) {
            return "nothing (null)";
        }
        if (value instanceof String s) {
            String shown = s.length() > MAX_SHOWN_CHARS ? s.substring(0, MAX_SHOWN_CHARS) + "..." : s;
            return '"' + escape(shown) + '"';
        }
        if (value instanceof Map<?, ?>) {
            return "a mapping";
        }
        if (value instanceof Collection<?>) {
            return "a list";
        }
        if (value instanceof byte[]) {
            return "binary data";
        }
        if (value instanceof Number || value instanceof Boolean) {
            return String.valueOf(value);
        }
        return "a value of type " + value.getClass().getSimpleName();
    }

    private static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
