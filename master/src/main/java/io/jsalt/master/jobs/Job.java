package io.jsalt.master.jobs;

import java.time.Instant;
import java.util.List;

/** A published job: what was asked, of whom, and which minions were expected to answer. */
public record Job(String jid, String fun, List<Object> arg, Object tgt, String tgtType, String user, List<String> minions, Instant started) {}
