package io.jsalt.cli;

import io.jsalt.config.MasterConfig;
import io.jsalt.master.request.ClientKey;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestTimeoutException;
import io.jsalt.transport.Transport;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.message.RequestEnvelope;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A local client's line to the master: clear requests on the request port, authenticated with the client
 * key the master wrote in its cachedir (readable only by the master's user), or, for any other user, with
 * eauth credentials or a token ({@code jsalt -a}, {@code -T}), which the master checks against
 * {@code external_auth} on every request.
 */
public final class MasterConnection implements AutoCloseable {
    private final MasterConfig config;
    private final Transport transport = Transport.createForOneProcess();
    private final RequestClient client;
    private final String clientKey;
    private final Map<String, Object> eauth;

    private MasterConnection(MasterConfig config, String clientKey, Map<String, Object> eauth) {
        this.config = config;
        this.clientKey = clientKey;
        this.eauth = Map.copyOf(eauth);
        this.client = transport.connectRequestClient(host(config), config.retPort());
    }

    /**
     * Connects as an eauth user: {@code credentials} is {@code {"token"}} or {@code {"eauth", "username",
     * "password"}}, sent with every request instead of the client key.
     */
    public static MasterConnection openEauth(MasterConfig config, Map<String, Object> credentials) {
        if (!isListening(config)) {
            throw new CliException(ExitCode.UNAVAILABLE, "the master is not running: nothing listens on "
                    + host(config) + ":" + config.retPort());
        }
        return new MasterConnection(config, null, credentials);
    }

    /** Whether this line speaks for an eauth user rather than the master's user. */
    public boolean isEauth() {
        return clientKey == null;
    }

    /** Connects, or throws a CliException saying why the master cannot be used from here. */
    public static MasterConnection open(MasterConfig config) {
        String key;
        String user = System.getProperty("user.name");
        try {
            key = ClientKey.read(config.cachedir(), user);
        } catch (NoSuchFileException e) {
            throw new CliException(ExitCode.UNAVAILABLE, "no client key at " + ClientKey.file(config.cachedir(), user)
                    + ": is the master running with this configuration (" + config.configDir() + ")?");
        } catch (IOException e) {
            throw new CliException(ExitCode.NO_PERMISSION, "cannot read the client key " + ClientKey.file(config.cachedir(), user)
                    + ": run as the master's user (" + e.getMessage() + ")");
        }
        if (!isListening(config)) {
            throw new CliException(ExitCode.UNAVAILABLE, "the master is not running: nothing listens on "
                    + host(config) + ":" + config.retPort());
        }
        return new MasterConnection(config, key, Map.of());
    }

    /** Whether something accepts TCP connections on the master's request port. */
    public static boolean isListening(MasterConfig config) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host(config), config.retPort()), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The address a local client uses: the bound interface, or loopback when bound to all. */
    public static String host(MasterConfig config) {
        String iface = config.interfaceAddress();
        return switch (iface) {
            case "0.0.0.0" -> "127.0.0.1";
            case "::", "[::]" -> "::1";
            default -> iface;
        };
    }

    /**
     * Sends a clear command with the client key (or the eauth credentials) and returns the reply's {@code load}.
     *
     * @throws CliException when the master answers an error or does not answer
     */
    public Map<String, Object> call(Map<String, Object> load, Duration timeout) {
        Map<String, Object> withKey = new LinkedHashMap<>(load);
        if (clientKey != null) {
            withKey.put("key", clientKey);
        } else if ("publish".equals(load.get("cmd"))) {
            // Salt's LocalClient sends a publish's credentials in its kwargs
            Map<String, Object> kwargs = new LinkedHashMap<>(load.get("kwargs") instanceof Map<?, ?> k ? Wire.asMap(k) : Map.of());
            kwargs.putAll(eauth);
            withKey.put("kwargs", kwargs);
        } else {
            withKey.putAll(eauth);
        }
        byte[] reply;
        try {
            reply = client.request(RequestEnvelope.clear(withKey).encode(), timeout);
        } catch (RequestTimeoutException e) {
            throw new CliException(ExitCode.UNAVAILABLE, "the master did not answer within " + timeout.toSeconds() + " s");
        }
        try {
            Map<String, Object> envelope = Wire.asMap(SaltPack.unpack(reply));
            Map<String, Object> body = Wire.map(envelope, "load");
            if (body.get("error") != null) {
                throw new CliException(ExitCode.NO_PERMISSION, "the master refused: " + body.get("error"));
            }
            return body;
        } catch (WireException e) {
            throw new CliException(ExitCode.SOFTWARE, "unreadable answer from the master: " + e.getMessage());
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
