package io.jsalt.transport.zmq;

import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import zmq.Msg;

/**
 * A decoded frame whose memory is charged to an {@link InflightBudget}. The socket's owner gives the memory
 * back with {@link #release()} as soon as it has taken the frame; a frame that never reaches the owner (its
 * connection closed half-way, or its message was dropped) gives it back when the JVM collects it.
 */
final class BudgetedFrame extends Msg {
    private static final Cleaner CLEANER = Cleaner.create(r -> {
        Thread t = new Thread(r, "jsalt-frame-budget");
        t.setDaemon(true);
        return t;
    });

    private final Reservation reservation;

    private BudgetedFrame(ByteBuffer buffer, Reservation reservation) {
        super(buffer);
        this.reservation = reservation;
    }

    /** A frame over {@code buffer} whose {@code buffer.capacity()} bytes are already reserved in {@code budget}. */
    static BudgetedFrame over(ByteBuffer buffer, InflightBudget budget) {
        Reservation reservation = new Reservation(budget, buffer.capacity());
        BudgetedFrame frame = new BudgetedFrame(buffer, reservation);
        CLEANER.register(frame, reservation::release);
        return frame;
    }

    /** Gives the frame's bytes back to the budget; later calls do nothing. */
    void release() {
        reservation.release();
    }

    /** Holds no reference to the frame, so that the cleaner can run once the frame is unreachable. */
    private static final class Reservation {
        private final InflightBudget budget;
        private final long bytes;
        private final AtomicBoolean released = new AtomicBoolean();

        Reservation(InflightBudget budget, long bytes) {
            this.budget = budget;
            this.bytes = bytes;
        }

        void release() {
            if (released.compareAndSet(false, true)) {
                budget.release(bytes);
            }
        }
    }
}
