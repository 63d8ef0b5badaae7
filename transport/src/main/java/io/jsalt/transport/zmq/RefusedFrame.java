package io.jsalt.transport.zmq;

import zmq.Msg;

/**
 * What the decoder gets instead of a frame that is too large or that the in-flight budget cannot take: no
 * bytes at all. JeroMQ's decoder cannot be told to drop a connection from its allocator, so it goes on as
 * if the frame were empty and reads the refused frame's body as further frames, each of them under the same
 * limits. The request port drops any message holding one of these, so the refused request is never
 * served: its client times out and retries. Elsewhere it arrives as an empty frame, which no decoder of
 * jsalt takes for a message.
 */
final class RefusedFrame extends Msg {
    RefusedFrame() {
        super(0);
    }
}
