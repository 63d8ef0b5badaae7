package io.jsalt.client;

import java.util.Map;

/**
 * One event from the master's bus, as Salt fires it: a tag such as {@code salt/job/<jid>/ret/<id>} and its
 * data, a map decoded from msgpack (text, numbers, booleans, null, lists, maps, byte arrays) that always
 * holds {@code _stamp}, the UTC time the master fired it. The map cannot be changed.
 */
public record Event(String tag, Map<String, Object> data) {
    public Event {
        data = java.util.Collections.unmodifiableMap(data);
    }
}
