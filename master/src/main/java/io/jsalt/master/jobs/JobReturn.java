package io.jsalt.master.jobs;

import java.time.Instant;

/**
 * One minion's stored answer to a job. {@code verified}: signed by the accepted key of the minion it
 * names; false for a minion that does not sign (a salt-minion in its default config, docs/interop.md).
 */
public record JobReturn(String jid, String id, Object ret, int retcode, boolean success, Instant received, boolean verified) {
    /** A verified return. */
    public JobReturn(String jid, String id, Object ret, int retcode, boolean success, Instant received) {
        this(jid, id, ret, retcode, success, received, true);
    }
}
