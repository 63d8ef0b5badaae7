package io.jsalt.master.request;

import io.jsalt.master.events.EventBus;
import io.jsalt.transport.codec.Printable;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code fire_hook} from jsalt-api ({@code {"cmd", "key", "path", "data"}}): fires salt-api's webhook event
 * {@code salt/netapi/hook/<path>} on the master's bus. Only with the root client key (jsalt-api runs as the
 * master's user), and only under that prefix, so even a holder of the key cannot fire a job, auth or minion
 * event this way. The path is slash-separated words of letters, digits, {@code . _ -} (no {@code ..}).
 */
public final class HookEvent implements ClearCommand {
    private static final Logger log = LoggerFactory.getLogger(HookEvent.class);
    private static final Pattern PATH = Pattern.compile("[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*");
    private static final String PREFIX = "salt/netapi/hook";

    private final ClientKey clientKey;
    private final EventBus events;

    public HookEvent(ClientKey clientKey, EventBus events) {
        this.clientKey = clientKey;
        this.events = events;
    }

    @Override
    public byte[] handle(Map<String, Object> load) {
        if (!clientKey.matches(load.get("key"))) {
            log.warn("fire_hook refused: bad client key");
            return SaltPack.pack(RequestDispatcher.error("Authentication error occurred."));
        }
        String path = Wire.optString(load, "path", "");
        if (!path.isEmpty() && (path.length() > 200 || !PATH.matcher(path).matches() || path.contains(".."))) {
            log.warn("fire_hook refused: bad path {}", Printable.quoted(path));
            return SaltPack.pack(RequestDispatcher.error("invalid hook path"));
        }
        Map<String, Object> data = load.get("data") == null ? Map.of() : Wire.map(load, "data");
        events.fire(path.isEmpty() ? PREFIX : PREFIX + "/" + path, data);
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("enc", "clear");
        envelope.put("load", Map.of("success", true));
        return SaltPack.pack(envelope);
    }
}
