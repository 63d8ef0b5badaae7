package io.jsalt.api.lowstate;

import io.jsalt.api.ApiException;
import io.jsalt.config.MasterConfig;
import io.jsalt.master.events.LocalEventClient;
import io.jsalt.master.request.ClientKey;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestTimeoutException;
import io.jsalt.transport.Transport;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.message.RequestEnvelope;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The API's line to the master, as the {@code jsalt} CLI has: clear requests on the request port carrying the
 * client key the master wrote in its cachedir (so jsalt-api runs as the master's user), and the master's
 * local event socket for returns. One request client, used by one HTTP thread at a time (synchronized):
 * requests are short; waiting for returns happens on the event socket, which each job opens for itself.
 */
public final class MasterClient implements AutoCloseable {
    private final MasterConfig config;
    private final Transport transport = Transport.create();
    private final RequestClient client;
    private final String clientKey;

    public MasterClient(MasterConfig config) {
        this.config = config;
        try {
            this.clientKey = ClientKey.read(config.cachedir(), System.getProperty("user.name"));
        } catch (IOException e) {
            transport.close();
            throw new ApiException(503, "Salt Master is not available: no readable client key in " + config.cachedir()
                    + " (run jsalt-api as the master's user, beside a running master)");
        }
        String host = switch (config.interfaceAddress()) {
            case "0.0.0.0" -> "127.0.0.1";
            case "::", "[::]" -> "::1";
            default -> config.interfaceAddress();
        };
        this.client = transport.connectRequestClient(host, config.retPort());
    }

    /** Sends {@code load} with the client key; the reply's load, or 503/504/500 as salt-api answers. */
    public synchronized Map<String, Object> call(Map<String, Object> load, Duration timeout) {
        Map<String, Object> withKey = new LinkedHashMap<>(load);
        withKey.put("key", clientKey);
        byte[] reply;
        try {
            reply = client.request(RequestEnvelope.clear(withKey).encode(), timeout);
        } catch (RequestTimeoutException e) {
            throw new ApiException(503, "Salt Master is not available: no answer within " + timeout.toSeconds() + " s");
        }
        try {
            Map<String, Object> body = Wire.map(Wire.asMap(SaltPack.unpack(reply)), "load");
            if (body.get("error") != null) {
                throw new ApiException(500, "the master refused: " + body.get("error"));
            }
            return body;
        } catch (WireException e) {
            throw new ApiException(500, "unreadable answer from the master: " + e.getMessage());
        }
    }

    /** A reader of the master's event bus, connected now (before a publish, so no return is missed). */
    public LocalEventClient events() {
        try {
            return LocalEventClient.connect(config.sockDir(), Duration.ofSeconds(5));
        } catch (IOException e) {
            throw new ApiException(503, "Salt Master is not available: its event socket: " + e.getMessage());
        }
    }

    public MasterConfig config() {
        return config;
    }

    @Override
    public void close() {
        client.close();
        transport.close();
    }
}
