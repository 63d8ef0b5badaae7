package io.jsalt.transport.zmq;

import io.jsalt.transport.RequestHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A request server's MWorker threads, numbered from 0. Each worker has its own stop flag so that the pool
 * can be resized and a dead worker restarted while the others serve; what a worker does with each request
 * (take it from the server's queue, answer it, leave the reply) is the server's {@link Serve}.
 */
final class WorkerPool {
    private static final Logger log = LoggerFactory.getLogger(WorkerPool.class);
    /** How long a worker waits on the queue before it looks at its stop flag again. */
    static final long POLL_MS = 100;

    /** One step of a worker: serve the next request if one comes within {@code timeoutMs}. */
    @FunctionalInterface
    interface Serve {
        void next(long timeoutMs) throws InterruptedException;
    }

    private final Serve serve;
    private final BooleanSupplier serverRunning;
    /** Guarded by {@code this}; index i is worker i. */
    private final List<Worker> pool = new ArrayList<>();

    WorkerPool(Serve serve, BooleanSupplier serverRunning) {
        this.serve = serve;
        this.serverRunning = serverRunning;
    }

    /**
     * Has the handler answer {@code request} through {@code reply}, now or later from another thread: an empty
     * reply when it answered null or threw before answering (a worker never dies of it), and never a second
     * reply to one request (a REQ client would take it for the answer to its next one).
     */
    static void answer(RequestHandler handler, byte[] request, Consumer<byte[]> reply) {
        OnceReply once = new OnceReply(reply);
        try {
            handler.handle(request, once);
        } catch (RuntimeException e) {
            log.warn("request handler failed: {}", e.toString());
            once.accept(new byte[0]);
        }
    }

    /** Lets the first answer through; {@code extends AtomicBoolean} saves an object per request. */
    private static final class OnceReply extends AtomicBoolean implements Consumer<byte[]> {
        private final transient Consumer<byte[]> reply;

        OnceReply(Consumer<byte[]> reply) {
            this.reply = reply;
        }

        @Override
        public void accept(byte[] payload) {
            if (compareAndSet(false, true)) {
                reply.accept(payload == null ? new byte[0] : payload);
            } else {
                log.warn("request handler answered one request twice: the second answer is dropped");
            }
        }
    }

    synchronized int size() {
        return pool.size();
    }

    synchronized boolean isAlive(int index) {
        return pool.get(index).thread.isAlive();
    }

    synchronized void restart(int index) {
        if (!serverRunning.getAsBoolean() || pool.get(index).thread.isAlive()) {
            return;
        }
        Worker fresh = new Worker(index);
        pool.set(index, fresh);
        fresh.thread.start();
    }

    synchronized void resize(int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("a request server needs at least one worker, not " + workers);
        }
        while (pool.size() < workers) {
            Worker w = new Worker(pool.size());
            pool.add(w);
            w.thread.start();
        }
        while (pool.size() > workers) {
            pool.remove(pool.size() - 1).running = false;
        }
    }

    /** Tells every worker to end; does not wait. Returns their threads, for a caller that does. */
    synchronized List<Thread> stop() {
        List<Thread> threads = new ArrayList<>();
        for (Worker w : pool) {
            w.running = false;
            threads.add(w.thread);
        }
        return threads;
    }

    /** Waits for {@code threads} to end, all within one deadline: a worker stuck in a handler must not hold up a restart for long. */
    static void joinWithin(List<Thread> threads, long waitMs) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        for (Thread t : threads) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            try {
                t.join(Math.max(1, left));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** One MWorker: serves requests until told to stop, or until an Error kills it (the master restarts it). */
    private final class Worker {
        final Thread thread;
        volatile boolean running = true;

        Worker(int index) {
            thread = new Thread(this::work, "jsalt-mworker-" + index);
            thread.setDaemon(true);
        }

        private void work() {
            try {
                while (running && serverRunning.getAsBoolean()) {
                    serve.next(POLL_MS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException | Error e) {
                // the thread ends; the master's process manager sees it dead and starts another
                if (running && serverRunning.getAsBoolean()) {
                    log.error("worker {} stopped: {}", thread.getName(), e.toString());
                }
            }
        }
    }
}
