package io.jsalt.master.cluster;

/** The cluster's shared state could not be read or changed: the database is away, or refused. */
public final class ClusterException extends RuntimeException {
    public ClusterException(String message) {
        super(message);
    }

    public ClusterException(String message, Throwable cause) {
        super(message, cause);
    }
}
