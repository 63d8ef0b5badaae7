package io.jsalt.master.support;

import io.jsalt.master.events.EventListener;
import io.jsalt.transport.event.EventFrame;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps every event fired on a bus, in order. */
public final class RecordedEvents implements EventListener {
    private final List<EventFrame> events = new CopyOnWriteArrayList<>();

    @Override
    public void onEvent(EventFrame event) {
        events.add(event);
    }

    public List<EventFrame> all() {
        return List.copyOf(events);
    }

    public List<String> tags() {
        return events.stream().map(EventFrame::tag).toList();
    }

    public List<EventFrame> tagged(String tag) {
        return events.stream().filter(e -> e.tag().equals(tag)).toList();
    }

    /** The values of {@code act} of the {@code salt/auth} (or {@code salt/key}) events, in order. */
    public List<Object> acts(String tag) {
        return tagged(tag).stream().map(e -> e.data().get("act")).toList();
    }

    public void clear() {
        events.clear();
    }
}
