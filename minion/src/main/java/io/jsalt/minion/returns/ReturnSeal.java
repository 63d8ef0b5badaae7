package io.jsalt.minion.returns;

import io.jsalt.minion.auth.Session;
import io.jsalt.transport.message.MinionSignature;
import io.jsalt.transport.message.ReturnMac;
import java.security.PrivateKey;
import java.util.Map;
import java.util.Optional;

/**
 * How a return proves its sender, chosen when it is sent (so a return kept in the outbox across a sign-in, a
 * master restart or a key rotation is sealed for the session it finally goes out under): with the session's
 * return secret when the master gave one ({@link ReturnMac}: a jsalt master), else with an RSA signature (Salt's
 * {@code minion_sign_messages}), else not at all ({@code minion_sign_messages: False}). A load that already
 * carries a signature (kept in an outbox by an older jsalt) is sent as it is.
 */
public final class ReturnSeal {
    /** Loads are sent as they are given: for callers that sign them themselves. */
    public static final ReturnSeal AS_GIVEN = new ReturnSeal(null, false);

    private final PrivateKey signingKey;
    private final boolean seals;

    private ReturnSeal(PrivateKey signingKey, boolean seals) {
        this.signingKey = signingKey;
        this.seals = seals;
    }

    /** Returns proved with the session's secret, or signed with {@code minionKey}; null: neither (unsigned returns). */
    public static ReturnSeal of(PrivateKey minionKey) {
        return new ReturnSeal(minionKey, true);
    }

    /** False for {@link #AS_GIVEN}: the caller has to sign its loads itself. */
    public boolean seals() {
        return seals;
    }

    /** The load as it goes out under {@code session} (null: a session not known, so signed). */
    public Map<String, Object> forSession(Session session, Map<String, Object> load) {
        if (signingKey == null || load.containsKey(MinionSignature.FIELD) || ReturnMac.carriedBy(load)) {
            return load;
        }
        return session != null && session.returnMac() != null ? session.returnMac().seal(load) : MinionSignature.sign(load, signingKey);
    }

    /**
     * The RSA-signed load, for a return whose MAC the master refused: a master that did not derive the same
     * secret (one that shares this session key but not the master key) still takes a signature. Empty when the
     * load was not sent with a MAC by this seal.
     */
    public Optional<Map<String, Object>> signedInstead(Session session, Map<String, Object> load) {
        if (signingKey == null || session == null || session.returnMac() == null || load.containsKey(MinionSignature.FIELD)
                || ReturnMac.carriedBy(load)) {
            return Optional.empty();
        }
        return Optional.of(MinionSignature.sign(load, signingKey));
    }
}
