package io.jsalt.modules.api;

/**
 * The job a function runs in. A function that declares a parameter of this type gets it injected, like a
 * {@code ModuleContext}; outside a minion job it gets {@link #NONE}.
 */
public interface JobControl {

    /** For calls that are not part of a job (tests, {@code ModuleRegistry.call(fun, args)}). */
    JobControl NONE = new JobControl() {
        @Override
        public String jid() {
            return "";
        }

        @Override
        public void childStarted(ProcessHandle child) {
            // no proc record to write: nothing can kill this call but its own thread's interruption
        }
    };

    /** The job's id; empty when the call is not part of a job. */
    String jid();

    /**
     * Records a child process the function started, so that the job's proc record lists it and
     * {@code saltutil.kill_job} can end it.
     */
    void childStarted(ProcessHandle child);
}
