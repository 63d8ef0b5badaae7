package io.jsalt.transport.codec;

/**
 * A peer-supplied value made safe for one log line or error message: cut to a bound and with every
 * character outside printable ASCII shown as {@code ?}, so a hostile id, command or path can neither
 * flood the log nor forge lines in it (CR/LF, terminal escapes).
 */
public final class Printable {
    /** Enough to recognise a command or an id. */
    public static final int SHORT = 40;

    private Printable() {
    }

    /** {@code String.valueOf(value)}, at most {@code max} characters (then "..."), non-printables as '?'. */
    public static String of(Object value, int max) {
        String s = String.valueOf(value);
        String cut = s.length() > max ? s.substring(0, max) + "..." : s;
        return cut.replaceAll("[^\\x20-\\x7e]", "?");
    }

    /** Enough for the reason a peer's message was refused, which may quote what the peer sent. */
    public static final int LONG = 200;

    /** {@link #of} at {@link #SHORT} characters, in single quotes as Salt logs names. */
    public static String quoted(Object value) {
        return "'" + of(value, SHORT) + "'";
    }

    /**
     * The message of an exception raised over peer input ({@code WireException}, a target parser's, ...),
     * which may hold what the peer sent: at most {@link #LONG} characters, non-printables as '?'.
     */
    public static String reason(Throwable e) {
        return of(e.getMessage(), LONG);
    }
}
