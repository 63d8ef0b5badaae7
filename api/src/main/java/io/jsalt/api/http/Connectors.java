package io.jsalt.api.http;

import io.jsalt.api.ApiConfig;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http2.HTTP2Cipher;
import org.eclipse.jetty.http2.server.AbstractHTTP2ServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * jsalt-api's one listening connector, from {@code rest_cherrypy}: TLS from ssl_crt/ssl_key unless
 * {@code disable_ssl}, and the protocols it speaks. With {@code http2} (the default) a TLS client chooses h2 or
 * http/1.1 by ALPN (the JDK's own), and a clear-text client may speak h2c by prior knowledge or ask for it
 * with HTTP/1.1's {@code Upgrade: h2c}; HTTP/1.1 is always offered (websockets, and every salt-api client of
 * today, speak it). With {@code http2: False} the connector speaks HTTP/1.1 only, as salt-api does.
 */
final class Connectors {
    /**
     * Streams one HTTP/2 connection may have open at once (Jetty's default is 128, twice the workers): a browser's
     * tabs share a connection, each with its event stream and a few requests.
     */
    static final int MAX_STREAMS_PER_CONNECTION = 16;

    private Connectors() {}

    static ServerConnector of(Server server, ApiConfig config) {
        HttpConfiguration http = new HttpConfiguration();
        // no "Server: Jetty(version)" header: the version is nobody's business on an exposed port
        http.setSendServerVersion(false);
        HttpConnectionFactory h1 = new HttpConnectionFactory(http);
        ServerConnector connector;
        if (config.disableSsl()) {
            connector = config.http2()
                    ? new ServerConnector(server, 1, 1, h1, withoutWebSockets(new HTTP2CServerConnectionFactory(http)))
                    : new ServerConnector(server, 1, 1, h1);
        } else {
            // clients reach the API by address as often as by name: the certificate is the client's to check
            SecureRequestCustomizer secure = new SecureRequestCustomizer();
            secure.setSniHostCheck(false);
            http.addCustomizer(secure);
            connector = new ServerConnector(server, 1, 1, tlsFactories(config, http, h1));
        }
        connector.setHost(config.host());
        connector.setPort(config.port());
        return connector;
    }

    private static ConnectionFactory[] tlsFactories(ApiConfig config, HttpConfiguration http, HttpConnectionFactory h1) {
        SslContextFactory.Server tls = new SslContextFactory.Server();
        tls.setKeyStore(TlsKeys.load(config.sslCrt(), config.sslKey()));
        tls.setKeyStorePassword(new String(TlsKeys.STORE_PASSWORD));
        if (!config.http2()) {
            return new ConnectionFactory[] {new SslConnectionFactory(tls, h1.getProtocol()), h1};
        }
        // RFC 9113 9.2.2: h2 refuses the ciphers it blacklists, so the ones it takes are tried first
        tls.setCipherComparator(HTTP2Cipher.COMPARATOR);
        HTTP2ServerConnectionFactory h2 = withoutWebSockets(new HTTP2ServerConnectionFactory(http));
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory(h2.getProtocol(), h1.getProtocol());
        alpn.setDefaultProtocol(h1.getProtocol()); // a client that offers no ALPN speaks HTTP/1.1
        return new ConnectionFactory[] {new SslConnectionFactory(tls, alpn.getProtocol()), alpn, h2, h1};
    }

    /**
     * No RFC 8441 extended CONNECT: a browser that is not offered it opens {@code /ws} on an HTTP/1.1
     * connection of its own, the one way the websocket is served and tested here.
     */
    private static <F extends AbstractHTTP2ServerConnectionFactory> F withoutWebSockets(F h2) {
        h2.setConnectProtocolEnabled(false);
        h2.setMaxConcurrentStreams(MAX_STREAMS_PER_CONNECTION);
        return h2;
    }
}
