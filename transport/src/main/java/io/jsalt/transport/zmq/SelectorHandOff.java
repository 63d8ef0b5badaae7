package io.jsalt.transport.zmq;

import java.nio.channels.Selector;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Between the native request server's selector thread and its MWorkers, as {@link WorkerHandOff} is for the
 * JeroMQ router: requests wait in one queue that an idle worker takes from, replies in another that the
 * selector thread empties. A worker that leaves a reply while the selector sleeps wakes it with
 * {@link Selector#wakeup()}, and only the first reply of a sleep does (the rest find it awake).
 */
final class SelectorHandOff {
    /** A whole REQ envelope's payload from {@code from}, holding {@code chargedBytes} of the in-flight budget. */
    record Request(ZmtpConnection from, byte[] payload, long chargedBytes) {}

    /** A worker's answer for {@code to}. */
    record Reply(ZmtpConnection to, byte[] payload) {}

    private final Selector selector;
    private final InflightBudget budget;
    private final LinkedBlockingQueue<Request> requests = new LinkedBlockingQueue<>();
    private final ConcurrentLinkedQueue<Reply> replies = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean woken = new AtomicBoolean();
    /** Wake-ups sent, for the bench's counts; a wake-up is a system call. */
    private final AtomicLong wakeUps = new AtomicLong();
    private volatile boolean selectorSleeping;
    private volatile boolean closed;

    SelectorHandOff(Selector selector, InflightBudget budget) {
        this.selector = selector;
        this.budget = budget;
    }

    /** Selector thread: a request for the next idle worker. */
    void request(Request request) {
        requests.add(request);
    }

    int waiting() {
        return requests.size();
    }

    /** Worker: the next request, its bytes given back to the budget (they are the worker's now); null on timeout. */
    Request take(long timeoutMs) throws InterruptedException {
        Request r = requests.poll(timeoutMs, TimeUnit.MILLISECONDS);
        if (r != null) {
            budget.release(r.chargedBytes());
        }
        return r;
    }

    /** Worker: leaves a reply and wakes the selector if it sleeps. After {@link #close} the reply is dropped. */
    void reply(ZmtpConnection to, byte[] payload) {
        if (closed) {
            return;
        }
        replies.add(new Reply(to, payload));
        // the selector marks itself asleep and then looks at the replies once more before it selects, so either
        // it sees this reply or this worker sees it asleep (both volatile)
        if (selectorSleeping && woken.compareAndSet(false, true)) {
            wakeUps.incrementAndGet();
            selector.wakeup();
        }
    }

    Reply nextReply() {
        return replies.poll();
    }

    boolean hasReplies() {
        return !replies.isEmpty();
    }

    /** Selector thread: about to select (true), or back from it (false, which lets the next reply wake it again). */
    void selectorSleeping(boolean sleeping) {
        selectorSleeping = sleeping;
        if (!sleeping) {
            woken.set(false);
        }
    }

    long wakeUps() {
        return wakeUps.get();
    }

    /** Drops every request no worker took (their budget goes back) and every reply not sent. */
    void close() {
        closed = true;
        Request left;
        while ((left = requests.poll()) != null) {
            budget.release(left.chargedBytes());
        }
        replies.clear();
    }
}
