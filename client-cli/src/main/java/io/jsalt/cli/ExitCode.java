package io.jsalt.cli;

/** Every exit code the tools use; documented in the README. */
public enum ExitCode {
    OK(0),
    /** At least one minion answered with a non-zero retcode. */
    MINION_ERROR(1),
    /** At least one targeted minion did not answer, or no minion matched. */
    NO_RETURN(2),
    /** The master refused or could not run the daemon: ports in use (Salt's code). */
    PORTS_UNAVAILABLE(4),
    /** Bad command line (sysexits EX_USAGE). */
    USAGE(64),
    /** The master could not be reached (EX_UNAVAILABLE). */
    UNAVAILABLE(69),
    /** The daemon failed at run time (EX_SOFTWARE). */
    SOFTWARE(70),
    /** Not allowed: the client key is unreadable, or the minion's key was rejected (EX_NOPERM). */
    NO_PERMISSION(77),
    /** Bad configuration (EX_CONFIG). */
    CONFIG(78);

    private final int code;

    ExitCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}
