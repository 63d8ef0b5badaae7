package io.jsalt.api.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code rest_cherrypy:authorized_ips}, in front of every other handler (websocket upgrades included): a client
 * whose TCP peer address is not listed gets salt-api's 403 {@code Bad IP} and nothing else runs. salt-api checks
 * it on every API resource after its login check; here a client outside the list learns nothing, not even
 * whether it is logged in, and the console and static files are refused it too.
 */
final class ClientAddressCheck extends Handler.Wrapper {
    private static final Logger log = LoggerFactory.getLogger(ClientAddressCheck.class);

    private final AuthorizedIps authorized;

    ClientAddressCheck(AuthorizedIps authorized, Handler next) {
        super(next);
        this.authorized = authorized;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (!authorized.restricted()) {
            return super.handle(request, response, callback);
        }
        SocketAddress remote = request.getConnectionMetaData().getRemoteSocketAddress();
        InetAddress address = remote instanceof InetSocketAddress inet ? inet.getAddress() : null;
        if (authorized.allows(address)) {
            return super.handle(request, response, callback);
        }
        log.warn("Blocked IP: {} (not in rest_cherrypy:authorized_ips)", address == null ? remote : address.getHostAddress());
        response.setStatus(403);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html;charset=utf-8");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "private");
        Content.Sink.write(response, true, ErrorPage.html(403, "Bad IP"), callback);
        return true;
    }
}
