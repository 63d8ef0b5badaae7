package io.jsalt.transport.message;

import io.jsalt.transport.codec.Printable;
import java.util.List;

/**
 * The form every file path on the wire must have before any side joins it to a folder (the master's file
 * roots, the minion's file cache): relative, '/'-separated, without empty, {@code .} or {@code ..}
 * segments, NUL or backslash, at most {@link #MAX_LENGTH} characters. It is taken exactly as received (no
 * URL decoding, so {@code %2e%2e} is a file name, not a parent). Where the joined path really leads
 * (symlinks) is each side's own check.
 */
public final class WirePath {
    /** Longer than any file name a minion needs; a bound on what a hostile request costs. */
    public static final int MAX_LENGTH = 4096;
    /** How much of a refused path a message shows. */
    private static final int SHOWN = 200;

    private WirePath() {
    }

    /**
     * Checks the form of a wire path and returns it unchanged.
     *
     * @throws UnsafePathException saying what is wrong with it
     */
    public static String check(String path) {
        if (path == null || path.isEmpty()) {
            throw new UnsafePathException("empty path");
        }
        if (path.length() > MAX_LENGTH) {
            throw new UnsafePathException("path longer than " + MAX_LENGTH + " characters");
        }
        if (path.indexOf('\0') >= 0) {
            throw new UnsafePathException("NUL in path: " + shown(path));
        }
        if (path.indexOf('\\') >= 0) {
            throw new UnsafePathException("backslash in path: " + shown(path));
        }
        if (path.startsWith("/")) {
            throw new UnsafePathException("absolute path: " + shown(path));
        }
        for (String segment : path.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw new UnsafePathException("empty, '.' or '..' segment in path: " + shown(path));
            }
        }
        return path;
    }

    /** True when {@link #check} accepts the path. */
    public static boolean isValid(String path) {
        try {
            check(path);
            return true;
        } catch (UnsafePathException e) {
            return false;
        }
    }

    /** The segments of a checked path, to resolve one by one against a local folder. */
    public static List<String> segments(String path) {
        return List.of(check(path).split("/"));
    }

    /** A bounded, printable rendering of a path for messages. */
    public static String shown(String path) {
        return "'" + Printable.of(path, SHOWN) + "'";
    }
}
