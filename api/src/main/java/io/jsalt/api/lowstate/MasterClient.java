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
 * The API's line to the master: clear requests on the request port, each carrying the user's token so
 * that the master checks the user's rights, and the master's local event socket for returns (so jsalt-api
 * runs as the master's user). One request client, used by one HTTP thread at a time (synchronized):
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
            // users' requests carry their tokens; the key serves only webhooks (fire_hook), and reading it proves
            // this process runs as the master's user, who alone may open the event socket returns arrive on
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

    /**
     * Tells the master where a user's password came from ({@code source: {address, key}}): the client key proves
     * it is this API speaking, so the master's login limit counts the address (a direct client's claim is ignored).
     */
    public void vouchFor(Map<String, Object> load, String address) {
        if (address != null) {
            load.put("source", Map.of("address", address, "key", clientKey));
        }
    }

    /** Sends {@code load} with the master's client key: only for what no user asks for (webhook events). */
    public Map<String, Object> callWithClientKey(Map<String, Object> load, Duration timeout) {
        Map<String, Object> withKey = new LinkedHashMap<>(load);
        withKey.put("key", clientKey);
        return callClear(withKey, timeout);
    }

    /**
     * Sends {@code load} as it is: a user's request carries their token, and the master checks their rights.
     * The reply's load; a refusal of the master is a 401 with its words, a bad target a 400, others 500, and
     * no answer a 503, as salt-api answers.
     */
    public synchronized Map<String, Object> callClear(Map<String, Object> load, Duration timeout) {
        byte[] reply;
        try {
            reply = client.request(RequestEnvelope.clear(load).encode(), timeout);
        } catch (RequestTimeoutException e) {
            throw new ApiException(503, "Salt Master is not available: no answer within " + timeout.toSeconds() + " s");
        }
        Map<String, Object> body;
        try {
            body = Wire.map(Wire.asMap(SaltPack.unpack(reply)), "load");
        } catch (WireException e) {
            throw new ApiException(500, "unreadable answer from the master: " + e.getMessage());
        }
        if (body.get("error") != null) {
            String error = String.valueOf(body.get("error"));
            if (error.startsWith("Too many failed logins")) {
                throw new ApiException(429, error); // the master's own login limit
            }
            if (error.startsWith("Authorization error") || error.startsWith("Authentication failure")) {
                throw ApiException.unauthorized(error);
            }
            if (error.startsWith("Invalid target") || error.startsWith("invalid ")) {
                // the master's words for a request it cannot read (a bad target, a bad minion id)
                throw ApiException.badRequest(error);
            }
            throw new ApiException(500, "the master refused: " + error);
        }
        return body;
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
