package io.jsalt.bench.harness;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Samples a process every 100 ms on its own thread and keeps the peaks (RSS, file descriptors, threads):
 * the figures a benchmark reports are the worst moment, not the end state.
 */
public final class PeakWatch implements AutoCloseable {
    private final long pid;
    private final Thread thread;
    private final AtomicReference<ProcSample> peak = new AtomicReference<>(new ProcSample(0, 0, 0, 0));
    private volatile boolean running = true;

    public PeakWatch(long pid) {
        this.pid = pid;
        this.thread = new Thread(this::run, "bench-peak-" + pid);
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        while (running) {
            ProcSample s = ProcSample.of(pid);
            peak.updateAndGet(p -> new ProcSample(Math.max(p.rssKiB(), s.rssKiB()), Math.max(p.cpuMillis(), s.cpuMillis()),
                    Math.max(p.fds(), s.fds()), Math.max(p.threads(), s.threads())));
            try {
                // /proc has no change notification: peaks are sampled at a fixed 100 ms rate
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    public ProcSample peak() {
        return peak.get();
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
