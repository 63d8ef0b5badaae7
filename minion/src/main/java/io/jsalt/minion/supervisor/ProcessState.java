package io.jsalt.minion.supervisor;

/**
 * Supervisor's process states, with its names and codes (supervisor.states.ProcessStates), so that scripts
 * reading {@code supervisorctl status} read jsalt's the same way.
 */
public enum ProcessState {
    STOPPED(0),
    STARTING(10),
    RUNNING(20),
    BACKOFF(30),
    STOPPING(40),
    EXITED(100),
    FATAL(200),
    UNKNOWN(1000);

    private final int code;

    ProcessState(int code) {
        this.code = code;
    }

    /** Supervisor's numeric code for the state. */
    public int code() {
        return code;
    }

    /** Supervisor's RUNNING_STATES: a process exists (or is about to). */
    public boolean hasProcess() {
        return this == STARTING || this == RUNNING || this == STOPPING;
    }

    /** Supervisor's STOPPED_STATES: start may be asked for. */
    public boolean isStopped() {
        return this == STOPPED || this == EXITED || this == FATAL || this == UNKNOWN;
    }
}
