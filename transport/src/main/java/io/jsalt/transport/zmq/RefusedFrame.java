package io.jsalt.transport.zmq;

import zmq.Msg;

/**
 * What the decoder gets instead of a frame that the in-flight budget cannot take: no bytes at all. JeroMQ's
 * decoder cannot be told to drop a connection from its allocator, so it goes on as if the frame were empty
 * and reads the refused frame's body as further frames (for a msgpack body the first of them declares
 * more than any limit, and the connection is dropped then). The socket's owner drops any message holding
 * one of these, so the refused request is never served: its client times out and retries.
 */
final class RefusedFrame extends Msg {
    RefusedFrame() {
        super(0);
    }
}
