package io.jsalt.api;

import io.jsalt.api.auth.Logins;
import io.jsalt.api.http.HttpFront;
import io.jsalt.api.lowstate.LowstateRunner;
import io.jsalt.api.lowstate.MasterClient;
import java.time.Clock;

/**
 * jsalt-api as a service: the line to the master, the logins, and the HTTP front. {@link #start()} binds the
 * port; {@link #close()} stops in reverse order.
 */
public final class ApiServer implements AutoCloseable {
    private final ApiConfig config;
    private final Clock clock;
    private MasterClient master;
    private HttpFront http;

    public ApiServer(ApiConfig config, Clock clock) {
        this.config = config;
        this.clock = clock;
    }

    /** @throws ApiException 503 when the master's client key cannot be read; IllegalStateException when the port is taken */
    public void start() {
        master = new MasterClient(config.master());
        Logins logins = new Logins(config.externalAuth(), master);
        http = new HttpFront(config, logins, new LowstateRunner(master, config.enabledClients()), master, clock);
        try {
            http.start();
        } catch (RuntimeException e) {
            master.close();
            throw e;
        }
    }

    /** The bound port (the configured one, or the one chosen for port 0 in tests). */
    public int port() {
        return http.port();
    }

    @Override
    public void close() {
        if (http != null) {
            http.close();
        }
        if (master != null) {
            master.close();
        }
    }
}
