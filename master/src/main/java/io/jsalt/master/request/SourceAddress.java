package io.jsalt.master.request;

import java.util.Map;

/**
 * The address a user's request came from, when jsalt-api vouches for it: the load's
 * {@code source: {"address", "key"}} with the master's client key (only the master's user can read it). Any other
 * client's claim is ignored (null: a direct client), so a guesser cannot escape the per-address login limit by
 * naming a fresh address in each request.
 */
public final class SourceAddress {
    public static final String FIELD = "source";

    private SourceAddress() {}

    public static String of(Map<String, Object> load, ClientKey clientKey) {
        if (load.get(FIELD) instanceof Map<?, ?> source && clientKey.matches(source.get("key"))
                && source.get("address") instanceof String address && !address.isBlank() && address.length() <= 100) {
            return address;
        }
        return null;
    }
}
