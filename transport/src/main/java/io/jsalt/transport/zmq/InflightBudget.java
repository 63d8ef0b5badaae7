package io.jsalt.transport.zmq;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes that all connections of one bound socket may hold together in frames still arriving or waiting
 * for the socket's owner. Reserved by the I/O threads' decoders when a frame's header arrives, released when
 * the owner takes the frame (or, for a frame whose connection closed half-way, when the frame is collected).
 */
final class InflightBudget {
    private final long capacity;
    private final AtomicLong used = new AtomicLong();

    InflightBudget(long capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("a budget cannot be negative: " + capacity);
        }
        this.capacity = capacity;
    }

    /** Takes {@code bytes} from the budget; false, taking nothing, when that would pass the capacity. */
    boolean tryReserve(long bytes) {
        while (true) {
            long now = used.get();
            if (bytes > capacity - now) {
                return false;
            }
            if (used.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    void release(long bytes) {
        used.addAndGet(-bytes);
    }

    long used() {
        return used.get();
    }

    long capacity() {
        return capacity;
    }
}
