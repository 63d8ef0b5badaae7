package io.jsalt.bench.swarm.zmtp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One thread and one NIO selector holding every ZMTP connection of a swarm JVM: its minions' subscriptions and
 * their short request connections. Connections are touched on this thread only; other threads hand it work with
 * {@link #execute}. Timers (reconnects, idle closes) run here too.
 */
final class SelectorLoop implements AutoCloseable {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(SelectorLoop.class);

    private record Timer(long atNanos, long seq, Runnable action) {}

    private final Selector selector;
    private final Thread thread;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean wakeupPending = new AtomicBoolean();
    private final PriorityQueue<Timer> timers = new PriorityQueue<>((a, b) -> a.atNanos != b.atNanos
            ? Long.compare(a.atNanos, b.atNanos) : Long.compare(a.seq, b.seq));
    private long timerSeq;
    /** Every read of every connection goes through this one buffer: connections keep only what they decoded. */
    final ByteBuffer readBuffer = ByteBuffer.allocateDirect(256 * 1024);
    private volatile boolean closing;

    SelectorLoop(String name) {
        try {
            selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    Selector selector() {
        return selector;
    }

    boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    boolean closing() {
        return closing;
    }

    /** Runs {@code task} on the loop thread (at once when called from it). */
    void execute(Runnable task) {
        if (inLoop()) {
            task.run();
            return;
        }
        tasks.add(task);
        if (wakeupPending.compareAndSet(false, true)) {
            selector.wakeup();
        }
    }

    /** On the loop thread: runs {@code action} after {@code delayMs}. */
    void schedule(long delayMs, Runnable action) {
        timers.add(new Timer(System.nanoTime() + delayMs * 1_000_000L, timerSeq++, action));
    }

    private void run() {
        while (!closing) {
            try {
                turn();
            } catch (IOException | RuntimeException e) {
                log.warn("swarm selector: {}", e.toString());
            }
        }
        for (SelectionKey key : selector.keys()) {
            if (key.attachment() instanceof ClientConnection c) {
                c.drop("the swarm's transport is closed");
            }
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing
        }
    }

    private void turn() throws IOException {
        wakeupPending.set(false);
        for (Runnable task; (task = tasks.poll()) != null; ) {
            guarded(task);
        }
        long waitMs = 0;
        if (!timers.isEmpty()) {
            waitMs = Math.max(1, (timers.peek().atNanos - System.nanoTime() + 999_999) / 1_000_000);
        }
        if (tasks.isEmpty()) {
            selector.select(waitMs);
        } else {
            selector.selectNow();
        }
        for (SelectionKey key : selector.selectedKeys()) {
            ClientConnection c = (ClientConnection) key.attachment();
            try {
                c.onSelected(key);
            } catch (IOException | RuntimeException e) {
                c.drop(e.toString());
            }
        }
        selector.selectedKeys().clear();
        long now = System.nanoTime();
        while (!timers.isEmpty() && timers.peek().atNanos <= now) {
            guarded(timers.poll().action());
        }
    }

    private static void guarded(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            log.warn("swarm selector task failed: {}", e.toString());
        }
    }

    @Override
    public void close() {
        closing = true;
        selector.wakeup();
        if (!inLoop()) {
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
