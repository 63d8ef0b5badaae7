package io.jsalt.master.jobs;

import java.time.Instant;

/** One minion's stored answer to a job. */
public record JobReturn(String jid, String id, Object ret, int retcode, boolean success, Instant received) {}
