package io.jsalt.master.events;

import io.jsalt.transport.event.EventFrame;

/** Receives every event fired on the master's bus, on the firing thread: keep it quick. */
@FunctionalInterface
public interface EventListener {
    void onEvent(EventFrame event);
}
