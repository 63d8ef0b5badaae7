package io.jsalt.master.events;

import io.jsalt.transport.codec.Printable;
import io.jsalt.transport.event.EventFrame;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The master's event bus: every component fires here; listeners (local sockets, job tracking) fan out. */
public final class EventBus {
    private static final Logger log = LoggerFactory.getLogger(EventBus.class);

    private final CopyOnWriteArrayList<EventListener> listeners = new CopyOnWriteArrayList<>();

    public void addListener(EventListener listener) {
        listeners.add(listener);
    }

    public void removeListener(EventListener listener) {
        listeners.remove(listener);
    }

    /** Fires {@code tag} with a copy of {@code data} stamped with {@code _stamp} (UTC ISO), as Salt does. */
    public void fire(String tag, Map<String, ?> data) {
        Map<String, Object> stamped = new LinkedHashMap<>(data);
        stamped.put("_stamp", LocalDateTime.now(ZoneOffset.UTC).toString());
        EventFrame event = new EventFrame(tag, stamped);
        if (log.isDebugEnabled()) { // Printable runs a regular expression: not for every return when nobody reads it
            log.debug("event {}", Printable.of(tag, Printable.LONG));
        }
        for (EventListener l : listeners) {
            try {
                l.onEvent(event);
            } catch (RuntimeException e) {
                log.warn("event listener failed on {}: {}", Printable.of(tag, Printable.LONG), e.toString());
            }
        }
    }
}
