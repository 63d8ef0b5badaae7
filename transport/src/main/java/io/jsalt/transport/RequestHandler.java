package io.jsalt.transport;

/**
 * Answers one request frame on the request port. Called on a worker thread; must be thread-safe
 * across workers. An exception is logged and answered with an error reply, so a worker never dies.
 */
@FunctionalInterface
public interface RequestHandler {
    byte[] handle(byte[] request);
}
