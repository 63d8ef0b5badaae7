package io.jsalt.client;

/**
 * Receives the events of an {@link EventSubscription}, one at a time and in the order the master fired
 * them, on the subscription's own thread. A listener that blocks holds back the events after it (the
 * master disconnects a reader that falls 10,000 events behind); one that throws ends its subscription.
 */
@FunctionalInterface
public interface EventListener {
    void onEvent(Event event);
}
