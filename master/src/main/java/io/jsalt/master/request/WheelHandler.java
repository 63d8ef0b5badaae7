package io.jsalt.master.request;

import io.jsalt.master.cluster.ClusterException;
import io.jsalt.transport.codec.Printable;
import io.jsalt.master.keys.KeyAdmin;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code wheel} from a local client, limited to the key functions ({@code key.accept}, {@code key.reject},
 * {@code key.delete}, {@code key.list_all}, {@code key.finger}, {@code key.gen_accept}), so that {@code jsalt-key} changes keys
 * through the running master, which rotates the session key and fires the events.
 */
public final class WheelHandler implements ClearCommand {
    private static final Logger log = LoggerFactory.getLogger(WheelHandler.class);

    private final ClientKey clientKey;
    private final KeyAdmin admin;

    public WheelHandler(ClientKey clientKey, KeyAdmin admin) {
        this.clientKey = clientKey;
        this.admin = admin;
    }

    @Override
    public byte[] handle(Map<String, Object> load) {
        if (!clientKey.matches(load.get("key"))) {
            log.warn("wheel call refused: bad client key");
            return SaltPack.pack(RequestDispatcher.error("Authentication error occurred."));
        }
        String fun = Wire.string(load, "fun");
        String match = Wire.optString(load, "match", "*");
        boolean rejected = Wire.bool(load, "include_rejected", false);
        boolean accepted = Wire.bool(load, "include_accepted", false);
        boolean denied = Wire.bool(load, "include_denied", false);
        Object result;
        try {
            result = call(fun, match, rejected, accepted, denied, load);
        } catch (ClusterException e) {
            // a master of a cluster whose database is away changes no key; it says why
            log.warn("wheel {} failed: {}", Printable.quoted(fun), e.getMessage());
            return SaltPack.pack(RequestDispatcher.error(e.getMessage()));
        }
        if (result == null) {
            log.warn("wheel function refused: {}", Printable.quoted(fun));
            return SaltPack.pack(RequestDispatcher.error("'" + fun + "' is not available."));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("return", result);
        body.put("success", true);
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("enc", "clear");
        envelope.put("load", body);
        return SaltPack.pack(envelope);
    }

    private Object call(String fun, String match, boolean rejected, boolean accepted, boolean denied, Map<String, Object> load) {
        return switch (fun) {
            case "key.accept" -> admin.accept(match, rejected, denied);
            case "key.reject" -> admin.reject(match, accepted, denied);
            case "key.delete" -> admin.delete(match);
            case "key.list_all" -> admin.listAll();
            case "key.finger" -> admin.finger(match);
            // from salt-api's form, keysize and force arrive as text
            case "key.gen_accept" -> admin.genAccept(Wire.string(load, "id_"),
                    Integer.parseInt(String.valueOf(load.getOrDefault("keysize", 2048))),
                    Boolean.parseBoolean(String.valueOf(load.getOrDefault("force", false))));
            default -> null;
        };
    }
}
