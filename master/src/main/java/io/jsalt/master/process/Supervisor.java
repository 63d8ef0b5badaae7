package io.jsalt.master.process;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's process manager (Salt's ProcessManager, Supervisor's states): runs named {@link Service}s,
 * checks their health every {@code checkInterval} on its own thread, and restarts a dead one after a
 * backoff, within the budget of a {@link RestartPolicy}. A service may depend on an earlier one: when the
 * parent is restarted its dependents are closed first and started again after it.
 *
 * <p>When a component restarts too fast and the policy does not say to keep trying, the supervisor stops
 * restarting it and completes {@link #failure()} with the reason; what to do then (exit non-zero) is the
 * launcher's decision. Every close is bounded ({@code closeWait}): a dead component whose close does not
 * return in time is left behind and given up at once, whatever the policy, since what it holds (its port)
 * cannot be had again in this process; the supervisor itself never waits for ever.
 */
public final class Supervisor implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Supervisor.class);

    private enum State { RUNNING, DOWN, WAITING_FOR_PARENT, GAVE_UP }

    /**
     * How long closing one component may take by default: past it the component is left behind on its
     * closing thread. Above the transport's own bounds (a server's threads 2 s, a socket context 5 s).
     */
    public static final Duration DEFAULT_CLOSE_WAIT = Duration.ofSeconds(15);

    private final RestartPolicy policy;
    private final Duration checkInterval;
    private final Duration closeWait;
    /** In start order; changed under {@code this}, read without it by {@link #isRunning} and {@link #restarts}. */
    private final List<Supervised> services = new CopyOnWriteArrayList<>();
    private final CompletableFuture<String> failure = new CompletableFuture<>();
    private final ScheduledExecutorService checker;
    private boolean closed;

    public Supervisor(RestartPolicy policy, Duration checkInterval) {
        this(policy, checkInterval, DEFAULT_CLOSE_WAIT);
    }

    /**
     * @param closeWait how long closing one component may take; a dead component that does not close within
     *                  it cannot be brought back (what it holds, a port above all, is not released), so the
     *                  supervisor gives up on it and completes {@link #failure()}
     */
    public Supervisor(RestartPolicy policy, Duration checkInterval, Duration closeWait) {
        this.policy = policy;
        this.checkInterval = checkInterval;
        this.closeWait = closeWait;
        this.checker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "jsalt-supervisor");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts {@code service} now (its exception propagates) and supervises it from then on. */
    public void add(Service service) {
        add(service, null);
    }

    /**
     * As {@link #add(Service)}, restarted whenever the service named {@code parent} is; when that one is
     * down now, the service is started as soon as it is up again.
     */
    public synchronized void add(Service service, String parent) {
        if (closed) {
            throw new IllegalStateException("supervisor closed");
        }
        if (find(service.name()).isPresent()) {
            throw new IllegalArgumentException("a service named " + service.name() + " is already supervised");
        }
        if (parent != null && find(parent).isEmpty()) {
            throw new IllegalArgumentException("no service named " + parent + " to depend on");
        }
        Supervised s = new Supervised(service, parent);
        if (parent != null && !parentRunning(s)) {
            s.state = State.WAITING_FOR_PARENT; // started with its parent
        } else {
            service.start();
        }
        services.add(s);
        log.debug("supervising {}", service.name());
    }

    /** Closes and forgets the service named {@code name} and its dependents (a pool shrinking). */
    public synchronized void remove(String name) {
        Supervised s = find(name).orElseThrow(() -> new IllegalArgumentException("no service named " + name));
        for (Supervised d : dependentsOf(s)) {
            closeWithin(d);
            services.remove(d);
        }
        closeWithin(s);
        services.remove(s);
    }

    /** Runs {@code change} (adding or removing services, resizing a pool) while no check or restart is under way. */
    public synchronized void reconfigure(Runnable change) {
        change.run();
    }

    /** Begins the health checks. */
    public void start() {
        long ms = Math.max(1, checkInterval.toMillis());
        checker.scheduleWithFixedDelay(this::check, ms, ms, TimeUnit.MILLISECONDS);
    }

    /** Completed, with the reason, when a component could not be kept up and the supervisor gave up. */
    public CompletableFuture<String> failure() {
        return failure;
    }

    /** How many times the service named {@code name} has been restarted since it was added. */
    public int restarts(String name) {
        return find(name).map(s -> s.restarts).orElse(0);
    }

    /** The names of the supervised services, in start order. */
    public List<String> names() {
        return services.stream().map(s -> s.service.name()).toList();
    }

    /** True while the service named {@code name} is up as far as the supervisor knows. */
    public boolean isRunning(String name) {
        return find(name).map(s -> s.state == State.RUNNING).orElse(false);
    }

    /** One round: notice dead services, restart those whose backoff is over. Runs on the checker thread. */
    synchronized void check() {
        if (closed) {
            return;
        }
        long now = System.nanoTime();
        for (Supervised s : new ArrayList<>(services)) {
            try {
                step(s, now);
            } catch (RuntimeException | Error e) {
                // never let one component's fault end the checks: the executor would stop scheduling them
                log.error("supervision of {} failed: {}", s.service.name(), e.toString());
            }
        }
    }

    private void step(Supervised s, long now) {
        switch (s.state) {
            case RUNNING -> {
                Optional<String> why = health(s);
                if (why.isPresent()) {
                    log.warn("component {} died: {}", s.service.name(), why.get());
                    down(s, why.get(), now);
                }
            }
            case DOWN -> {
                if (now - s.restartAt >= 0) {
                    restart(s, now);
                }
            }
            case WAITING_FOR_PARENT -> {
                if (parentRunning(s)) {
                    startDependent(s, now);
                }
            }
            case GAVE_UP -> { }
        }
    }

    /** A health check that throws counts as a death, so that it is retried with backoff, not logged forever. */
    private static Optional<String> health(Supervised s) {
        try {
            return s.service.failure();
        } catch (RuntimeException e) {
            return Optional.of("its health check failed: " + e);
        }
    }

    private void down(Supervised s, String reason, long now) {
        s.state = State.DOWN; // at once: closing can take seconds, and isRunning must not say up meanwhile
        List<Supervised> dependents = dependentsOf(s);
        List<String> stuck = new ArrayList<>();
        for (int i = dependents.size() - 1; i >= 0; i--) {
            Supervised d = dependents.get(i);
            if (d.state == State.RUNNING && !closeWithin(d)) {
                d.state = State.GAVE_UP;
                stuck.add(d.service.name());
            }
            if (d.state != State.GAVE_UP) {
                d.state = State.WAITING_FOR_PARENT;
            }
        }
        if (!closeWithin(s)) {
            stuck.add(s.service.name());
        }
        s.lastReason = reason;
        if (!stuck.isEmpty()) {
            // restarting would bind again what the stuck close still holds: only a new process can recover it
            s.state = State.GAVE_UP;
            String why = "component " + String.join(", ", stuck) + " did not close within " + closeWait.toMillis()
                    + " ms after " + s.service.name() + " died (" + reason + "): it cannot be brought back in this process";
            log.error("{}: giving up", why);
            failure.complete(why);
            return;
        }
        int recent = s.recentRestarts(now, policy.window().toNanos());
        if (policy.tooFast(recent)) {
            String tooFast = "component " + s.service.name() + " is restarting too fast (" + recent + " restarts within "
                    + policy.window().toSeconds() + " s)";
            if (!policy.restartForever()) {
                s.state = State.GAVE_UP;
                log.error("{}: giving up; last failure: {}", tooFast, reason);
                failure.complete(tooFast + "; last failure: " + reason);
                return;
            }
            log.warn("{}: next try in {} ms", tooFast, policy.backoff(recent).toMillis());
        }
        s.state = State.DOWN;
        s.restartAt = now + policy.backoff(recent).toNanos();
    }

    private void restart(Supervised s, long now) {
        if (s.parent != null && !parentRunning(s)) {
            s.state = State.WAITING_FOR_PARENT;
            return;
        }
        s.restartTimes.addLast(now);
        s.restarts++;
        try {
            s.service.start();
            s.state = State.RUNNING;
            log.info("component {} restarted (restart {}; it had failed: {})", s.service.name(), s.restarts, s.lastReason);
        } catch (RuntimeException | Error e) {
            // an Error too (a class that fails to load): it must take the backoff, never a hot loop
            log.warn("component {} did not restart: {}", s.service.name(), e.toString());
            down(s, "restart failed: " + e.getMessage(), now);
        }
    }

    private void startDependent(Supervised s, long now) {
        try {
            s.service.start();
            s.state = State.RUNNING;
        } catch (RuntimeException | Error e) {
            log.warn("component {} did not start again after {}: {}", s.service.name(), s.parent, e.toString());
            down(s, "start after " + s.parent + " failed: " + e.getMessage(), now);
        }
    }

    private boolean parentRunning(Supervised s) {
        return find(s.parent).map(p -> p.state == State.RUNNING).orElse(false);
    }

    /** Every service depending on {@code s}, directly or not, in start order. */
    private List<Supervised> dependentsOf(Supervised s) {
        List<Supervised> out = new ArrayList<>();
        List<String> names = new ArrayList<>(List.of(s.service.name()));
        for (Supervised other : services) {
            if (other.parent != null && names.contains(other.parent)) {
                out.add(other);
                names.add(other.service.name());
            }
        }
        return out;
    }

    private Optional<Supervised> find(String name) {
        return services.stream().filter(s -> s.service.name().equals(name)).findFirst();
    }

    /**
     * Closes {@code s} on a thread of its own and waits for it at most {@code closeWait}: a component that
     * died inside a library (a JeroMQ thread, a handler) can block its close for ever, and the supervisor
     * must go on watching the others. True when the close returned in time (even by throwing).
     */
    private boolean closeWithin(Supervised s) {
        String name = s.service.name();
        Thread closer = new Thread(() -> {
            try {
                s.service.close();
            } catch (RuntimeException | Error e) {
                log.warn("error while closing {}: {}", name, e.toString());
            }
        }, "jsalt-close-" + name);
        closer.setDaemon(true); // one left behind must not keep the JVM alive
        closer.start();
        try {
            closer.join(Math.max(1, closeWait.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (closer.isAlive()) {
            log.error("component {} did not close within {} ms: left behind", name, closeWait.toMillis());
            return false;
        }
        return true;
    }

    /** Stops the health checks, then closes every service in reverse start order. */
    @Override
    public void close() {
        checker.shutdown();
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            for (int i = services.size() - 1; i >= 0; i--) {
                Supervised s = services.get(i);
                if (s.state == State.RUNNING) {
                    closeWithin(s);
                }
            }
        }
        try {
            checker.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A service and what the supervisor knows of it; changed only under the supervisor's lock. */
    private static final class Supervised {
        final Service service;
        final String parent;
        final Deque<Long> restartTimes = new ArrayDeque<>();
        volatile State state = State.RUNNING;
        long restartAt;
        volatile int restarts;
        String lastReason = "";

        Supervised(Service service, String parent) {
            this.service = service;
            this.parent = parent;
        }

        int recentRestarts(long now, long windowNanos) {
            while (!restartTimes.isEmpty() && now - restartTimes.peekFirst() > windowNanos) {
                restartTimes.removeFirst();
            }
            return restartTimes.size();
        }
    }
}
