package io.jsalt.master.ports;

import io.jsalt.master.process.Service;
import java.util.Optional;

/**
 * One worker thread of the request server, as a supervised service: it lives inside the request server
 * (which owns its socket), so starting it again asks the server to replace a dead thread, and closing it
 * is left to the server.
 */
public final class MWorker implements Service {
    private final RequestPort requests;
    private final int index;

    public MWorker(RequestPort requests, int index) {
        this.requests = requests;
        this.index = index;
    }

    public static String name(int index) {
        return "mworker-" + index;
    }

    @Override
    public String name() {
        return name(index);
    }

    @Override
    public void start() {
        requests.server().restartWorker(index);
    }

    @Override
    public Optional<String> failure() {
        return requests.server().isWorkerAlive(index) ? Optional.empty() : Optional.of("worker thread " + index + " stopped");
    }

    @Override
    public void close() {
        // the thread belongs to the request server: it stops with it, or is replaced by start()
    }
}
