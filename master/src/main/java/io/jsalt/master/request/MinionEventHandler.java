package io.jsalt.master.request;

import io.jsalt.transport.codec.Printable;
import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.Rsa;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.keys.MinionKeys;
import io.jsalt.master.session.SignIns;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.message.MinionEvent;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code _minion_event}: re-fires a minion's event on the master bus. The sender proves its id with
 * {@code tok}; the event's {@code id} is forced to that id, and a minion may not use a {@code salt/} tag
 * other than its own {@code salt/minion/<id>/...} (Salt lets any minion pose as the system). A start event
 * fires once per sign-in ({@link SignIns}): a captured one sent again does not announce a start that did not happen.
 */
public final class MinionEventHandler implements AesCommand {
    private static final Logger log = LoggerFactory.getLogger(MinionEventHandler.class);
    /** Supervisor state changes: {@code jsalt/supervisor/<id>/<process>/<STATE>}. */
    public static final String SUPERVISOR_PREFIX = "jsalt/supervisor/";
    private static final byte[] TOKEN_PLAINTEXT = "salt".getBytes(StandardCharsets.US_ASCII);

    private final MinionKeys keys;
    private final EventBus events;
    private final MinionTrust trust;

    private final SignIns signIns;

    /**
     * @param trust   told of each minion's start event (its sign-in's last step); null: nobody is told
     * @param signIns whose sign-ins let each start event fire once (a replayed start event is dropped)
     */
    public MinionEventHandler(MinionKeys keys, EventBus events, MinionTrust trust, SignIns signIns) {
        this.keys = keys;
        this.events = events;
        this.trust = trust;
        this.signIns = signIns;
    }

    @Override
    public Object handle(Map<String, Object> load, String nonce) {
        MinionEvent ev = MinionEvent.fromLoad(load);
        Optional<PublicKey> key = keys.acceptedKey(ev.id());
        if (key.isEmpty() || !tokenValid(key.get(), ev.tok())) {
            log.warn("event from {} refused: not proven by its accepted key", ev.id());
            return false;
        }
        String startTag = "salt/minion/" + ev.id() + "/start";
        boolean start = false;
        if (load.get("events") instanceof List<?> batch) {
            for (Object item : batch) {
                Map<String, Object> m = Wire.asMap(item);
                String tag = Wire.optString(m, "tag", "");
                start |= fire(ev.id(), tag, m.get("data")) && tag.equals(startTag);
            }
        } else {
            start = fire(ev.id(), ev.tag(), ev.data()) && startTag.equals(ev.tag());
        }
        if (start && trust != null) { // a start event dropped as a replay tells the trust policy nothing
            trust.started(ev.id(), key.get(), load);
        }
        return true;
    }

    /** Fires the event unless its tag is refused or it is a replayed start; true when fired. */
    private boolean fire(String id, String tag, Object data) {
        if (!allowed(id, tag)) {
            log.warn("event from {} refused: tag {} is reserved or malformed", id, Printable.quoted(tag));
            return false;
        }
        if (isStartTag(id, tag) && !signIns.firstStartEvent(id, tag)) {
            log.warn("start event {} from {} dropped: it did not follow a sign-in (a replay)", Printable.quoted(tag), id);
            return false;
        }
        Map<String, Object> payload = new LinkedHashMap<>();
        if (data instanceof Map<?, ?> m) {
            m.forEach((k, v) -> payload.put(String.valueOf(k), v));
        } else {
            payload.put("data", data);
        }
        payload.put("id", id);
        events.fire(tag, payload);
        return true;
    }

    /** A minion announces its start with these two tags, once after it signs in. */
    static boolean isStartTag(String id, String tag) {
        return tag.equals("minion_start") || tag.equals("salt/minion/" + id + "/start");
    }

    /**
     * Salt fires a minion's tag as sent; jsalt keeps tags outside {@code salt/} as sent too (reactors and
     * listeners key on them), but refuses the system's {@code salt/} namespace except the minion's own
     * {@code salt/minion/<id>/...}, and control characters (a tag ends at the event frame's blank line); under
     * {@code jsalt/supervisor/} only the minion's own {@code jsalt/supervisor/<id>/...}.
     */
    static boolean allowed(String id, String tag) {
        if (tag.isEmpty() || tag.length() > 512 || tag.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            return false;
        }
        if (tag.equals("minion_start") || tag.startsWith("salt/minion/" + id + "/")) {
            return true;
        }
        if (tag.startsWith(SUPERVISOR_PREFIX)) {
            // the fleet's process table is built from these: a minion speaks only for its own programs
            return tag.startsWith(SUPERVISOR_PREFIX + id + "/");
        }
        return !tag.startsWith("salt/");
    }

    private static boolean tokenValid(PublicKey key, byte[] tok) {
        try {
            return Arrays.equals(Rsa.x931PublicDecrypt(key, tok), TOKEN_PLAINTEXT);
        } catch (CryptoException e) {
            return false;
        }
    }
}
