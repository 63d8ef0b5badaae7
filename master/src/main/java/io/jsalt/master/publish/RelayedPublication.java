package io.jsalt.master.publish;

import io.jsalt.crypto.Rsa;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.message.PublishLoad;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A job one master hands to the other masters of its cluster to publish to their minions too: the job as it
 * published it, which master, and when, packed and signed with the master key (SHA-256, PKCS#1 v1.5). The
 * masters of a cluster share that key (Salt's multi-master requires it), so a master believes a relayed job
 * only under its own master key's signature: whoever can only write to the shared database cannot make one,
 * nor change a signed one's target or function. A signed one sent again is refused by its age (see
 * {@link #check}) and by its jid (the relaying master's own memory, and each minion's).
 *
 * @param masterId  the master that published it ({@code <host>_master:<ret_port>})
 * @param published when it published it
 * @param job       the job, as its minions got it
 */
public record RelayedPublication(String masterId, Instant published, PublishLoad job) {
    /** How old a relayed job may be (or how far ahead of this master's clock): keep the masters' clocks in step. */
    public static final Duration MAX_AGE = Duration.ofSeconds(60);

    /** The signed bytes, and the signature over them. */
    public record Signed(byte[] body, byte[] sig) {}

    public Signed sign(PrivateKey masterKey) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("master_id", masterId);
        m.put("published", published.toEpochMilli());
        m.put("load", job.toLoad());
        byte[] body = SaltPack.pack(m);
        return new Signed(body, Rsa.signSha256(masterKey, body));
    }

    /**
     * The relayed job in {@code body}, when {@code sig} is the master key's signature over it.
     *
     * @throws WireException when the signature is not the master key's, or the body is not a relayed job
     */
    public static RelayedPublication open(byte[] body, byte[] sig, PublicKey masterKey) {
        if (!Rsa.verifySha256(masterKey, body, sig)) {
            throw new WireException("not signed with this cluster's master key");
        }
        Map<String, Object> m = Wire.asMap(SaltPack.unpack(body));
        return new RelayedPublication(Wire.string(m, "master_id"), Instant.ofEpochMilli(Wire.longValue(m, "published")),
                PublishLoad.fromLoad(Wire.map(m, "load")));
    }

    /** Why this relayed job must not be published at {@code now}, or null when it may. */
    public String check(Instant now, String ownMasterId) {
        if (masterId.equals(ownMasterId)) {
            return "it names this master as its publisher";
        }
        Duration age = Duration.between(published, now);
        if (age.abs().compareTo(MAX_AGE) > 0) {
            return "it was published " + age.toSeconds() + " s ago (at most " + MAX_AGE.toSeconds() + " s either way)";
        }
        return null;
    }
}
