package io.jsalt.cli;

/** Every exit code the tools use; documented in the README. */
public enum ExitCode {
    OK(0),
    /** At least one minion answered with a non-zero retcode; jsalt-run, jsalt-call: the function failed. */
    MINION_ERROR(1),
    /**
     * At least one targeted minion did not answer, or no minion matched; jsalt-call: the minion's key is not
     * accepted yet (salt-call's code for it).
     */
    NO_RETURN(2),
    /** The master refused or could not run the daemon: ports in use (Salt's code). */
    PORTS_UNAVAILABLE(4),
    /** Bad command line (sysexits EX_USAGE). */
    USAGE(64),
    /** The master could not be reached (EX_UNAVAILABLE). */
    UNAVAILABLE(69),
    /** A file could not be written: jsalt-key --gen-keys in a folder it cannot write (EX_CANTCREAT). */
    CANT_CREATE(73),
    /** The daemon failed at run time (EX_SOFTWARE). */
    SOFTWARE(70),
    /** Not allowed: the client key is unreadable, or the minion's key was rejected (EX_NOPERM). */
    NO_PERMISSION(77),
    /** A daemon is already running with the same pid file (EX_TEMPFAIL: try again once it has stopped). */
    ALREADY_RUNNING(75),
    /** Bad configuration (EX_CONFIG), or a daemon's folders are unsafe (a pki_dir others can write). */
    CONFIG(78);

    private final int code;

    ExitCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The constant with this numeric code; SOFTWARE for a code jsalt does not use (a JVM crash, a signal). */
    public static ExitCode of(int code) {
        for (ExitCode e : values()) {
            if (e.code == code) {
                return e;
            }
        }
        return SOFTWARE;
    }
}
