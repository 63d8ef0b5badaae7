package io.jsalt.transport;

import java.util.function.Consumer;

/**
 * Answers one request frame on the request port. Called on a worker thread; must be thread-safe
 * across workers. An exception is logged and answered with an error reply, so a worker never dies.
 */
@FunctionalInterface
public interface RequestHandler {
    byte[] handle(byte[] request);

    /**
     * Answers {@code request} through {@code reply}, exactly once, on this thread or later on another one: a
     * handler whose answer waits for something another thread does (a return's reply waits for its row's
     * commit on the job cache's writer thread) gives the worker back at once instead of holding it. A request
     * server's {@code reply} is safe to call from any thread (it leaves the reply on the server's hand-off).
     * By default the answer is {@link #handle(byte[])}'s, on this thread.
     */
    default void handle(byte[] request, Consumer<byte[]> reply) {
        reply.accept(handle(request));
    }
}
