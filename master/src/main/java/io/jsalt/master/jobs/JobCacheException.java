package io.jsalt.master.jobs;

/** The job cache could not keep or give back what was asked (its store failed, or it is closed). */
public final class JobCacheException extends RuntimeException {
    public JobCacheException(String message) {
        super(message);
    }

    public JobCacheException(String message, Throwable cause) {
        super(message, cause);
    }
}
