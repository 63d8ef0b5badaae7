package io.jsalt.transport;

/**
 * Told when a subscription's connection to the publisher comes and goes (the socket monitor's handshake
 * and disconnect events), on the subscription's own thread: implementations only hand the news on.
 */
public interface ConnectionListener {
    /** A connection to the publisher completed its handshake: the first one, or one after a disconnect. */
    void onConnected();

    /** The connection to the publisher was lost; the socket reconnects by itself. */
    void onDisconnected();
}
