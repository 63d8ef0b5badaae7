package io.jsalt.master.jobs;

/**
 * What the caller of {@link JobCache#saveReturn(JobReturn, ReturnSaved)} hears once the return is stored for good
 * (its row committed) or could not be: exactly one of the two, on the caller's thread or on the store's writer
 * thread. It must be quick (it holds up the writes behind it) and must not write to the job cache and wait.
 */
public interface ReturnSaved {
    /** @param stored false when that minion had returned for that job already (nothing was stored) */
    void saved(boolean stored);

    void failed(RuntimeException e);
}
