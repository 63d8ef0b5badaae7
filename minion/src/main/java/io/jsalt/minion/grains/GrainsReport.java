package io.jsalt.minion.grains;

import io.jsalt.transport.codec.Printable;
import io.jsalt.crypto.CryptoException;
import io.jsalt.minion.channel.MasterRequests;
import io.jsalt.minion.channel.NotSignedInException;
import io.jsalt.minion.channel.UnexpectedReplyException;
import io.jsalt.transport.TransportException;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.message.MinionSignature;
import io.jsalt.transport.message.RequestStamp;
import java.security.PrivateKey;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the master this minion's grains, the way a salt-minion does after every sign-in: a {@code _pillar}
 * request (Salt's RemotePillar, {@code ver} "2") carrying them. The master keeps the grains for grain
 * targeting and answers this minion's pillar, which {@link #send} hands to the minion's pillar holder and
 * {@link #fetch} returns as is (Salt's {@code pillar.items}, which does not change the pillar in memory).
 * The load is signed with the minion key as returns are ({@link MinionSignature}): a jsalt master then
 * knows these grains are this minion's own (a Salt master ignores the extra {@code sig}).
 */
public final class GrainsReport {
    private static final Logger log = LoggerFactory.getLogger(GrainsReport.class);

    private final String minionId;
    private final Supplier<Map<String, Object>> grains;
    private final MasterRequests channel;
    private final PrivateKey minionKey;
    private final Consumer<Map<String, Object>> pillarSink;

    public GrainsReport(String minionId, Supplier<Map<String, Object>> grains, MasterRequests channel, PrivateKey minionKey) {
        this(minionId, grains, channel, minionKey, pillar -> { });
    }

    /** @param pillarSink receives the pillar each {@link #send} brings back */
    public GrainsReport(String minionId, Supplier<Map<String, Object>> grains, MasterRequests channel, PrivateKey minionKey,
            Consumer<Map<String, Object>> pillarSink) {
        this.minionId = minionId;
        this.grains = grains;
        this.channel = channel;
        this.minionKey = minionKey;
        this.pillarSink = pillarSink;
    }

    /** Salt's {@code _pillar} load for these grains, as a salt-minion 3006 sends it (the channel adds the nonce). */
    public static Map<String, Object> load(String minionId, Map<String, Object> grains) {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("id", minionId);
        load.put("grains", grains);
        load.put("saltenv", null);
        load.put("pillarenv", null);
        load.put("pillar_override", Map.of());
        load.put("extra_minion_data", Map.of());
        load.put("ver", "2");
        load.put("cmd", "_pillar");
        return load;
    }

    /**
     * Sends the current grains; true when the master answered with a valid private reply. A failure is
     * logged (the pillar held is not changed); the caller may try again.
     */
    public boolean send() {
        try {
            Map<String, Object> pillar = fetch(Map.of(), null, null);
            pillarSink.accept(pillar);
            log.debug("{}: grains sent to the master; pillar of {} keys", minionId, pillar.size());
            return true;
        } catch (TransportException | NotSignedInException | UnexpectedReplyException | CryptoException | WireException e) {
            log.warn("{}: grains not sent to the master, and no pillar from it: {}", minionId, Printable.reason(e));
            return false;
        }
    }

    /**
     * Sends the current grains with {@code override} (Salt's {@code pillar_override}), {@code saltenv} and
     * {@code pillarenv} (null: none), and returns the pillar the master answers; nothing is kept.
     *
     * @throws TransportException and the channel's other exceptions when the master does not answer or refuses
     */
    public Map<String, Object> fetch(Map<String, Object> override, String saltenv, String pillarenv) {
        // the stamp is signed with the grains: a jsalt master keeps only the newest report (RequestStamp)
        Map<String, Object> load = load(minionId, grains.get());
        load.put("pillar_override", override);
        load.put("saltenv", saltenv);
        load.put("pillarenv", pillarenv);
        Map<String, Object> stamped = RequestStamp.stamp(load, System.currentTimeMillis());
        Object pillar = channel.sendForPrivateReply(MinionSignature.sign(stamped, minionKey), "pillar", minionKey);
        if (!(pillar instanceof Map<?, ?> m)) {
            throw new UnexpectedReplyException("the master's pillar is not a dictionary");
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        m.forEach((k, v) -> copy.put(String.valueOf(k), v));
        return copy;
    }
}
