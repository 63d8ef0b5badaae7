package io.jsalt.api.http;

import io.jsalt.api.auth.LoginThrottle;
import io.jsalt.api.lowstate.MasterClient;
import io.jsalt.api.auth.Logins;
import io.jsalt.api.lowstate.LowstateRunner;
import io.jsalt.api.ApiConfig;
import io.jsalt.api.events.EventHub;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded Jetty server: one connector on {@code host:port} (TLS or clear, HTTP/1.1 and HTTP/2: see
 * {@link Connectors}), bodies bounded to 1 MiB ({@link BodyLimit}), a bounded worker pool.
 */
public final class HttpFront implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(HttpFront.class);
    /** The worker threads; an event stream ({@code /events}, {@code /ws}) holds none once it streams. */
    static final int WORKERS = 64;
    /** A websocket client's own messages are salt-api's "websocket client ready": nothing large. */
    private static final long MAX_WS_MESSAGE = 65_536;

    private final Server server;
    private final ServerConnector connector;
    private final EventHub hub;

    /** Serves {@code config}'s host and port, over TLS when {@code disable_ssl} is false (ssl_crt, ssl_key). */
    public HttpFront(ApiConfig config, Logins logins, LowstateRunner runner, MasterClient master, java.time.Clock clock) {
        QueuedThreadPool pool = new QueuedThreadPool(WORKERS, 4);
        pool.setName("jsalt-api-http");
        server = new Server(pool);
        connector = Connectors.of(server, config);
        server.addConnector(connector);
        hub = new EventHub(master);
        ApiStats stats = new ApiStats(clock, hub::subscriptions);
        StreamSlots slots = new StreamSlots(config.events().maxStreams(), stats);
        Cors cors = new Cors(config.corsOrigins());
        ApiHandler api = new ApiHandler(new Routes(logins, runner,
                new LoginThrottle(clock, Routes.MAX_LOGIN_FAILURES, 60),
                new Webhooks(logins, master, config.webhookDisableAuth()), config.webhookUrl(), stats),
                new EventStream(master, slots, hub, config.events().streamBuffer()), cors, stats, config.web(), config.rootPrefix(), config.debug());
        // salt-api's root_prefix: the whole API under one path (CherryPy's mount point); outside it, a 404
        ContextHandler context = new ContextHandler(config.rootPrefix().isEmpty() ? "/" : config.rootPrefix());
        // GET /ws and /ws/<token> with an Upgrade: websocket are the websocket's; every other request goes on to the API
        WebSocketEvents sockets = new WebSocketEvents(master, slots, pool, cors, hub, config.events().streamBuffer(),
                server.getScheduler());
        WebSocketUpgradeHandler upgrade = WebSocketUpgradeHandler.from(server, context, container -> {
            container.setMaxTextMessageSize(MAX_WS_MESSAGE);
            container.setMaxBinaryMessageSize(MAX_WS_MESSAGE);
            container.setIdleTimeout(java.time.Duration.ofSeconds(60)); // a feed pings every 5 s
            container.addMapping("/ws", sockets);
            container.addMapping("/ws/*", sockets);
        });
        upgrade.setHandler(new BodyLimit(api));
        context.setHandler(upgrade);
        server.setHandler(new ClientAddressCheck(config.authorizedIps(), context));
        server.setStopTimeout(5_000);
    }

    public void start() {
        try {
            server.start();
        } catch (Exception e) {
            close();
            throw new IllegalStateException("cannot serve HTTP on " + connector.getHost() + ":" + connector.getPort()
                    + ": " + e.getMessage(), e);
        }
        log.info("jsalt-api listening on {}:{} ({})", connector.getHost(), connector.getLocalPort(),
                String.join(", ", connector.getProtocols()));
    }

    public int port() {
        return connector.getLocalPort();
    }

    /**
     * Ends the event streams first (their clients are told why, and Jetty's graceful stop would otherwise wait its
     * timeout for them), then stops the server: requests in progress get their answers.
     */
    @Override
    public void close() {
        hub.close(); // the streams end saying why, before their connections go
        try {
            server.stop();
        } catch (Exception e) {
            log.warn("the HTTP server did not stop cleanly: {}", e.getMessage());
        }
    }
}
