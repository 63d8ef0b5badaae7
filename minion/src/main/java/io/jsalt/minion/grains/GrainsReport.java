package io.jsalt.minion.grains;

import io.jsalt.transport.codec.Printable;
import io.jsalt.crypto.CryptoException;
import io.jsalt.minion.channel.MasterChannel;
import io.jsalt.minion.channel.NotSignedInException;
import io.jsalt.minion.channel.UnexpectedReplyException;
import io.jsalt.transport.TransportException;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.message.MinionSignature;
import io.jsalt.transport.message.RequestStamp;
import java.security.PrivateKey;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the master this minion's grains, the way a salt-minion does after every sign-in: a {@code _pillar}
 * request (Salt's RemotePillar, {@code ver} "2") carrying them. The master keeps the grains for grain
 * targeting; the pillar it answers (jsalt's master answers an empty one) is checked and otherwise unused.
 * The load is signed with the minion key as returns are ({@link MinionSignature}): a jsalt master then
 * knows these grains are this minion's own (a Salt master ignores the extra {@code sig}).
 */
public final class GrainsReport {
    private static final Logger log = LoggerFactory.getLogger(GrainsReport.class);

    private final String minionId;
    private final Supplier<Map<String, Object>> grains;
    private final MasterChannel channel;
    private final PrivateKey minionKey;

    public GrainsReport(String minionId, Supplier<Map<String, Object>> grains, MasterChannel channel, PrivateKey minionKey) {
        this.minionId = minionId;
        this.grains = grains;
        this.channel = channel;
        this.minionKey = minionKey;
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
     * logged and left there: the next sign-in sends the grains again.
     */
    public boolean send() {
        try {
            // the stamp is signed with the grains: a jsalt master keeps only the newest report (RequestStamp)
            Map<String, Object> stamped = RequestStamp.stamp(load(minionId, grains.get()), System.currentTimeMillis());
            Object pillar = channel.sendForPrivateReply(MinionSignature.sign(stamped, minionKey),
                    "pillar", minionKey);
            log.debug("{}: grains sent to the master; pillar of {} keys", minionId,
                    pillar instanceof Map<?, ?> m ? m.size() : 0);
            return true;
        } catch (TransportException | NotSignedInException | UnexpectedReplyException | CryptoException | WireException e) {
            log.warn("{}: grains not sent to the master: {}", minionId, Printable.reason(e));
            return false;
        }
    }
}
