package io.jsalt.master.ports;

import io.jsalt.master.process.Service;
import io.jsalt.transport.PublishServer;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The publish port as a supervised service, and the {@link PublishServer} the rest of the master publishes
 * to: it forwards to whichever socket is bound now, so a restart is invisible to publishers. A publication
 * made while the port is being bound again is dropped, as one sent to a minion that is not connected.
 */
public final class PublishPort implements Service, PublishServer {
    private static final Logger log = LoggerFactory.getLogger(PublishPort.class);

    private final TransportService transport;
    private final Supplier<String> host;
    private final PortBinding binding;
    private volatile int port;
    private volatile PublishServer current;

    public PublishPort(TransportService transport, Supplier<String> host, int port, Duration rebindFor) {
        this.transport = transport;
        this.host = host;
        this.port = port;
        this.binding = new PortBinding(rebindFor);
    }

    @Override
    public String name() {
        return "publisher";
    }

    @Override
    public void start() {
        PublishServer bound = binding.bind(() -> transport.current().bindPublisher(host.get(), port));
        port = bound.port();
        current = bound;
    }

    @Override
    public Optional<String> failure() {
        PublishServer s = current;
        return s == null || s.isAlive() ? Optional.empty() : Optional.of("the publisher thread on port " + port + " stopped");
    }

    @Override
    public void publish(byte[] payload) {
        PublishServer s = current;
        if (s == null) {
            log.warn("publication dropped: the publish port is being bound again");
            return;
        }
        s.publish(payload);
    }

    @Override
    public void publish(byte[] topic, byte[] payload) {
        PublishServer s = current;
        if (s == null) {
            log.warn("publication dropped: the publish port is being bound again");
            return;
        }
        s.publish(topic, payload);
    }

    /** The topics subscribed on the socket bound now: empty while it is being bound again. */
    @Override
    public Set<String> subscribedTopics() {
        PublishServer s = current;
        return s == null ? Set.of() : s.subscribedTopics();
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public boolean isAlive() {
        PublishServer s = current;
        return s != null && s.isAlive();
    }

    @Override
    public void close() {
        PublishServer s = current;
        current = null;
        if (s != null) {
            s.close();
        }
    }
}
