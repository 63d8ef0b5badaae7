package io.jsalt.api.http;

import io.jsalt.api.auth.LoginThrottle;
import io.jsalt.api.lowstate.MasterClient;
import io.jsalt.api.auth.Logins;
import io.jsalt.api.lowstate.LowstateRunner;
import io.jsalt.api.ApiConfig;
import io.jsalt.api.events.EventHub;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.SizeLimitHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded Jetty server: one clear-text HTTP/1.1 connector on {@code host:port}, bodies bounded to
 * 1 MiB, a bounded worker pool. TLS and HTTP/2 are for later (docs/api.md).
 */
public final class HttpFront implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(HttpFront.class);
    private static final long MAX_BODY = 1_048_576;
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
        HttpConfiguration http = new HttpConfiguration();
        // no "Server: Jetty(version)" header: the version is nobody's business on an exposed port
        http.setSendServerVersion(false);
        if (config.disableSsl()) {
            connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        } else {
            SslContextFactory.Server tls = new SslContextFactory.Server();
            tls.setKeyStore(TlsKeys.load(config.sslCrt(), config.sslKey()));
            tls.setKeyStorePassword(new String(TlsKeys.STORE_PASSWORD));
            // clients reach the API by address as often as by name: the certificate is the client's to check
            SecureRequestCustomizer secure = new SecureRequestCustomizer();
            secure.setSniHostCheck(false);
            http.addCustomizer(secure);
            connector = new ServerConnector(server, 1, 1, new SslConnectionFactory(tls, "http/1.1"), new HttpConnectionFactory(http));
        }
        connector.setHost(config.host());
        connector.setPort(config.port());
        server.addConnector(connector);
        SizeLimitHandler limit = new SizeLimitHandler(MAX_BODY, -1);
        hub = new EventHub(master);
        ApiStats stats = new ApiStats(clock, hub::subscriptions);
        StreamSlots slots = new StreamSlots(config.events().maxStreams(), stats);
        Cors cors = new Cors(config.corsOrigins());
        ApiHandler api = new ApiHandler(new Routes(logins, runner,
                new LoginThrottle(clock, Routes.MAX_LOGIN_FAILURES, 60),
                new Webhooks(logins, master, config.webhookDisableAuth()), config.webhookUrl(), stats),
                new EventStream(master, slots, hub, config.events().streamBuffer()), cors, stats, config.web(), config.debug());
        // GET /ws and /ws/<token> with an Upgrade: websocket are the websocket's; every other request goes on to the API
        WebSocketEvents sockets = new WebSocketEvents(master, slots, pool, cors, hub, config.events().streamBuffer());
        WebSocketUpgradeHandler upgrade = WebSocketUpgradeHandler.from(server, container -> {
            container.setMaxTextMessageSize(MAX_WS_MESSAGE);
            container.setMaxBinaryMessageSize(MAX_WS_MESSAGE);
            container.setIdleTimeout(java.time.Duration.ofSeconds(60)); // a feed pings every 5 s
            container.addMapping("/ws", sockets);
            container.addMapping("/ws/*", sockets);
        });
        limit.setHandler(api);
        upgrade.setHandler(limit);
        server.setHandler(new ClientAddressCheck(config.authorizedIps(), upgrade));
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
        log.info("jsalt-api listening on http://{}:{}", connector.getHost(), connector.getLocalPort());
    }

    public int port() {
        return connector.getLocalPort();
    }

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
