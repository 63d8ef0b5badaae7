package io.jsalt.transport;

/** Receives the payload frame of each publication, on the subscription's own thread. */
@FunctionalInterface
public interface PublicationListener {
    void onPublication(byte[] payload);
}
