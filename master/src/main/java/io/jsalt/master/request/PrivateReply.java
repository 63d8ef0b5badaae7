package io.jsalt.master.request;

import java.util.Map;

/** A reply encrypted for one minion only (Salt's send_private, used by {@code _pillar}); sent as is. */
public record PrivateReply(Map<String, Object> reply) {}
