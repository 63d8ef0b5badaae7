package io.jsalt.master.events;

import io.jsalt.master.process.Service;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The local event socket as a supervised service: while up, every event on the bus reaches its readers.
 * A restart opens the socket again; readers that were connected must reconnect, as after a master restart.
 */
public final class LocalEvents implements Service {
    private final EventBus bus;
    private final Path sockDir;
    private volatile LocalEventServer server;

    public LocalEvents(EventBus bus, Path sockDir) {
        this.bus = bus;
        this.sockDir = sockDir;
    }

    @Override
    public String name() {
        return "local-events";
    }

    @Override
    public void start() {
        LocalEventServer s = new LocalEventServer(sockDir);
        bus.addListener(s);
        server = s;
    }

    @Override
    public Optional<String> failure() {
        LocalEventServer s = server;
        return s == null || s.isAlive() ? Optional.empty() : Optional.of("the event socket stopped accepting readers");
    }

    /** The readers of the event socket connected now; 0 while the socket is down. */
    public int readerCount() {
        LocalEventServer s = server;
        return s == null ? 0 : s.readerCount();
    }

    @Override
    public void close() {
        LocalEventServer s = server;
        server = null;
        if (s != null) {
            bus.removeListener(s);
            s.close();
        }
    }
}
