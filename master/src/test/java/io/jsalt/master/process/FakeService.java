package io.jsalt.master.process;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** A service the test kills at will, that records when it was started and closed. */
final class FakeService implements Service {
    private final String name;
    final List<Long> startedAt = new CopyOnWriteArrayList<>();
    final List<Long> diedAt = new CopyOnWriteArrayList<>();
    final AtomicInteger closes = new AtomicInteger();
    /** How many of the next start() calls throw. */
    final AtomicInteger failingStarts = new AtomicInteger();
    /** How many of the next start() calls throw an Error, as a class that cannot load. */
    final AtomicInteger erroringStarts = new AtomicInteger();
    /** Makes failure() itself throw, as a health check that cannot look. */
    volatile boolean healthThrows;
    /** While set, close() waits for it, as a component whose close is stuck inside a library. */
    volatile java.util.concurrent.CountDownLatch closeBlocksUntil;
    private volatile String failure;

    FakeService(String name) {
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void start() {
        if (failingStarts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new IllegalStateException(name + " cannot start");
        }
        if (erroringStarts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new NoClassDefFoundError(name + " lost a class");
        }
        failure = null;
        healthThrows = false;
        startedAt.add(System.nanoTime());
    }

    /** Makes the service report itself dead, as a thread that ended with an uncaught exception. */
    void die(String why) {
        diedAt.add(System.nanoTime());
        failure = why;
    }

    int starts() {
        return startedAt.size();
    }

    @Override
    public Optional<String> failure() {
        if (healthThrows) {
            throw new IllegalStateException("cannot look");
        }
        return Optional.ofNullable(failure);
    }

    @Override
    public void close() {
        closes.incrementAndGet();
        java.util.concurrent.CountDownLatch blocker = closeBlocksUntil;
        if (blocker != null) {
            try {
                blocker.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
