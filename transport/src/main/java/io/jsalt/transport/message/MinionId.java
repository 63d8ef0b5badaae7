package io.jsalt.transport.message;

import io.jsalt.transport.codec.WireException;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The one place where minion ids are validated and turned into paths. An id names key files and cache
 * entries, so everything built from one goes through {@link #resolveIn}.
 */
public final class MinionId {
    /** The form of an id, as {@link #isValid} checks it (and documents say it): kept for the test that compares the two. */
    static final Pattern VALID = Pattern.compile("[A-Za-z0-9._@-]{1,255}");
    private static final int MAX_LENGTH = 255;

    private MinionId() {}

    public static boolean isValid(String id) {
        // no leading dot: key folders hold hidden files (temp files, Salt's .key_cache) that are not minions
        if (id == null || id.isEmpty() || id.length() > MAX_LENGTH || id.charAt(0) == '.') {
            return false;
        }
        // what VALID matches, without a matcher: every return and every key look-up checks an id
        for (int i = 0; i < id.length(); i++) {
            if (!allowed(id.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean allowed(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '@' || c == '-';
    }

    /** Returns the id, or throws {@link WireException} naming what is wrong with it. */
    public static String require(String id) {
        if (!isValid(id)) {
            throw new WireException("invalid minion id: " + describe(id));
        }
        return id;
    }

    /** {@code dir/id}, guaranteed to stay inside {@code dir}. */
    public static Path resolveIn(Path dir, String id) {
        Path base = dir.toAbsolutePath().normalize();
        Path p = base.resolve(require(id)).normalize();
        if (!base.equals(p.getParent())) {
            throw new WireException("minion id escapes " + dir + ": " + describe(id));
        }
        return p;
    }

    private static String describe(String id) {
        if (id == null) {
            return "(none)";
        }
        String shown = id.length() > 64 ? id.substring(0, 64) + "..." : id;
        return "'" + shown.replaceAll("[^\\x20-\\x7e]", "?") + "'";
    }
}
