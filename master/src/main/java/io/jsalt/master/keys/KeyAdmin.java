package io.jsalt.master.keys;

import io.jsalt.crypto.RsaKeys;
import io.jsalt.master.events.EventBus;
import io.jsalt.transport.message.MinionId;
import io.jsalt.transport.target.Glob;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * What an operator does to keys (salt-key's accept, reject, delete, list, finger), by id or glob. Each
 * change fires {@code salt/key}; revoking a key that could read publications calls {@code onRevoke} so
 * the master can rotate the session key; each id deleted or rejected goes to {@code onForget}, so what
 * the master knows of that minion (its cached grains) goes with its key.
 */
public final class KeyAdmin {
    private final MinionKeys keys;
    private final EventBus events;
    private final Runnable onRevoke;
    private final Consumer<String> onForget;

    public KeyAdmin(MinionKeys keys, EventBus events, Runnable onRevoke) {
        this(keys, events, onRevoke, id -> { });
    }

    public KeyAdmin(MinionKeys keys, EventBus events, Runnable onRevoke, Consumer<String> onForget) {
        this.keys = keys;
        this.events = events;
        this.onRevoke = onRevoke;
        this.onForget = onForget;
    }

    public List<String> accept(String match, boolean includeRejected, boolean includeDenied) {
        List<String> done = new ArrayList<>();
        List<KeyState> from = new ArrayList<>(List.of(KeyState.PENDING));
        if (includeRejected) {
            from.add(KeyState.REJECTED);
        }
        if (includeDenied) {
            from.add(KeyState.DENIED);
        }
        for (KeyState state : from) {
            for (String id : matching(state, match)) {
                if (keys.move(id, state, KeyState.ACCEPTED)) {
                    done.add(id);
                    fire("accept", id);
                }
            }
        }
        return done;
    }

    public List<String> reject(String match, boolean includeAccepted, boolean includeDenied) {
        List<String> done = new ArrayList<>();
        boolean revoked = false;
        List<KeyState> from = new ArrayList<>(List.of(KeyState.PENDING));
        if (includeAccepted) {
            from.add(KeyState.ACCEPTED);
        }
        if (includeDenied) {
            from.add(KeyState.DENIED);
        }
        for (KeyState state : from) {
            for (String id : matching(state, match)) {
                if (keys.move(id, state, KeyState.REJECTED)) {
                    done.add(id);
                    revoked |= state == KeyState.ACCEPTED;
                    onForget.accept(id);
                    fire("reject", id);
                }
            }
        }
        if (revoked) {
            onRevoke.run();
        }
        return done;
    }

    public List<String> delete(String match) {
        List<String> done = new ArrayList<>();
        boolean revoked = false;
        for (KeyState state : KeyState.values()) {
            for (String id : matching(state, match)) {
                List<KeyState> removed = keys.delete(id);
                if (!removed.isEmpty()) {
                    done.add(id);
                    revoked |= removed.contains(KeyState.ACCEPTED);
                    onForget.accept(id);
                    fire("delete", id);
                }
            }
        }
        if (revoked) {
            onRevoke.run();
        }
        return done;
    }

    /** salt-key -L: {"minions": [...], "minions_pre": [...], "minions_rejected": [...], "minions_denied": [...]}. */
    public Map<String, Object> listAll() {
        Map<String, Object> out = new LinkedHashMap<>();
        keys.listAll().forEach((state, ids) -> out.put(state.folder(), ids));
        return out;
    }

    /** salt-key -f: {folder: {id: sha256 fingerprint}} for matching ids. */
    public Map<String, Object> finger(String match) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (KeyState state : KeyState.values()) {
            Map<String, Object> prints = new LinkedHashMap<>();
            for (String id : matching(state, match)) {
                keys.fingerprint(state, id).ifPresent(fp -> prints.put(id, fp));
            }
            out.put(state.folder(), prints);
        }
        return out;
    }

    private List<String> matching(KeyState state, String match) {
        Pattern p = Glob.compile(match);
        return keys.list(state).stream().filter(id -> p.matcher(id).matches()).toList();
    }

    /**
     * Salt's {@code key.gen_accept}: a new key pair for {@code id}, its public half stored as accepted;
     * {@code {"pub", "priv"}} PEMs, or an empty map when {@code id} is already accepted and not {@code force}.
     * The private half is not kept on the master.
     */
    public Map<String, Object> genAccept(String id, int bits, boolean force) {
        MinionId.require(id);
        if (bits < 2048 || bits > 8192) {
            throw new IllegalArgumentException("keysize must be between 2048 and 8192 bits");
        }
        if (!force && keys.stateOf(id).filter(s -> s == KeyState.ACCEPTED).isPresent()) {
            return Map.of();
        }
        java.security.KeyPair pair = RsaKeys.generate(bits);
        String pub = RsaKeys.publicKeyPem(pair.getPublic());
        keys.store(KeyState.ACCEPTED, id, pub);
        fire("accept", id);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("pub", pub);
        out.put("priv", RsaKeys.privateKeyPem(pair.getPrivate()));
        return out;
    }

    private void fire(String act, String id) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("act", act);
        data.put("id", id);
        events.fire("salt/key", data);
    }
}
