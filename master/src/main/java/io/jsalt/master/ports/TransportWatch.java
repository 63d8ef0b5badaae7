package io.jsalt.master.ports;

import io.jsalt.transport.HealthProbe;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Transport;
import io.jsalt.transport.TransportException;
import io.jsalt.transport.codec.SaltPack;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells whether the transport still serves, by asking: a {@link HealthProbe} sent over TCP to the master's
 * own request port, from a socket context of its own (a stuck context could not even send). The router
 * answers it ahead of the workers, so an answer proves the I/O thread and the router alive however busy
 * the pool is; {@code failuresToDie} silent probes in a row declare the transport dead.
 */
public final class TransportWatch implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TransportWatch.class);
    private static final byte[] PING = HealthProbe.request();

    private final TransportService transport;
    private final RequestPort requests;
    private final Supplier<String> host;
    private final BooleanSupplier portsUp;
    private final Duration timeout;
    private final int failuresToDie;
    private Transport probeTransport;
    private RequestClient client;
    private int clientPort;
    private int failures;

    /**
     * @param host    the interface the ports bind to (a wildcard address is probed on loopback)
     * @param portsUp false while the supervisor is restarting the ports: probes are not counted then
     */
    public TransportWatch(TransportService transport, RequestPort requests, Supplier<String> host, BooleanSupplier portsUp,
            Duration timeout, int failuresToDie) {
        this.transport = transport;
        this.requests = requests;
        this.host = host;
        this.portsUp = portsUp;
        this.timeout = timeout;
        this.failuresToDie = failuresToDie;
    }

    /** Sends one probe and waits for its answer; called from the maintenance thread only. */
    public void check() {
        if (!portsUp.getAsBoolean()) {
            failures = 0;
            return;
        }
        int generation = transport.generation();
        if (answers()) {
            failures = 0;
            return;
        }
        failures++;
        log.warn("the request port {} did not answer a health probe within {} ms ({} of {})", requests.port(),
                timeout.toMillis(), failures, failuresToDie);
        if (failures >= failuresToDie) {
            failures = 0;
            transport.markDead(generation, "the request port " + requests.port() + " did not answer " + failuresToDie
                    + " health probes in a row");
        }
    }

    private boolean answers() {
        try {
            byte[] reply = client().request(PING, timeout);
            log.trace("health probe answered: {}", SaltPack.unpack(reply));
            return true;
        } catch (TransportException e) {
            return false;
        } catch (RuntimeException e) {
            return true; // an answer we could not read is still an answer
        }
    }

    private RequestClient client() {
        int port = requests.port();
        if (client == null || clientPort != port) {
            closeClient();
            if (probeTransport == null) {
                probeTransport = Transport.create();
            }
            client = probeTransport.connectRequestClient(probeHost(host.get()), port);
            clientPort = port;
        }
        return client;
    }

    static String probeHost(String iface) {
        return switch (iface) {
            case "0.0.0.0" -> "127.0.0.1";
            case "::", "[::]" -> "::1";
            default -> iface;
        };
    }

    private void closeClient() {
        if (client != null) {
            client.close();
            client = null;
        }
    }

    @Override
    public void close() {
        closeClient();
        if (probeTransport != null) {
            probeTransport.close();
            probeTransport = null;
        }
    }
}
