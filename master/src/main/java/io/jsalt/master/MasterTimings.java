package io.jsalt.master;

import io.jsalt.master.process.Supervisor;
import java.time.Duration;

/**
 * The supervision pace that is not configuration: how often the process manager looks at its components,
 * the backoff of a restart, how the transport is probed and how long a restarted port may take to bind
 * again. Tests pass faster ones; the master runs with {@link #DEFAULT}.
 *
 * @param healthCheck    how often every component's health is looked at
 * @param initialBackoff the wait before the first restart of a component; it doubles with each restart
 * @param maxBackoff     the longest wait, and the pace of a component restarting too fast with
 *                       {@code component_restart_forever}
 * @param probeInterval  how often the request port is probed
 * @param probeTimeout   how long a probe waits for its answer
 * @param probeFailures  silent probes in a row that declare the transport dead
 * @param rebindFor      how long a restarted port keeps trying to bind while the old socket lets go
 * @param closeWait      how long closing one component may take before the master gives it up and fails
 */
public record MasterTimings(Duration healthCheck, Duration initialBackoff, Duration maxBackoff, Duration probeInterval,
        Duration probeTimeout, int probeFailures, Duration rebindFor, Duration closeWait) {

    public static final MasterTimings DEFAULT = new MasterTimings(Duration.ofMillis(250), Duration.ofMillis(250),
            Duration.ofSeconds(30), Duration.ofSeconds(3), Duration.ofSeconds(5), 2, Duration.ofSeconds(10));

    /** With the default close wait ({@link Supervisor#DEFAULT_CLOSE_WAIT}). */
    public MasterTimings(Duration healthCheck, Duration initialBackoff, Duration maxBackoff, Duration probeInterval,
            Duration probeTimeout, int probeFailures, Duration rebindFor) {
        this(healthCheck, initialBackoff, maxBackoff, probeInterval, probeTimeout, probeFailures, rebindFor,
                Supervisor.DEFAULT_CLOSE_WAIT);
    }
}
