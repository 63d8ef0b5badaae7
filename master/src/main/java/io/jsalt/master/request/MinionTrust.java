package io.jsalt.master.request;

import io.jsalt.master.keys.MinionKeys;
import io.jsalt.master.keys.SigningPins;
import io.jsalt.transport.message.MinionSignature;
import java.security.PublicKey;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The trust policy for what a minion sends under its id (docs/interop.md). A minion that has proved its
 * identity by signing with its accepted key (every jsalt minion signs; a salt-minion does with
 * {@code minion_sign_messages: True}) is pinned, and from then on an unsigned request under its id is
 * refused. A minion that has never signed (a salt-minion in its default config) is served, its returns
 * marked unverified: Salt 3006 gives a master nothing else to bind them to their sender.
 * {@code require_minion_sign_messages: True} refuses every unsigned return instead.
 */
public final class MinionTrust {
    private static final Logger log = LoggerFactory.getLogger(MinionTrust.class);

    /** What a load's signature says about its sender. */
    public enum Verdict {
        /** signed by the accepted key of the id it names */
        VERIFIED,
        /** unsigned, from a minion that has never signed: taken, marked unverified */
        UNVERIFIED,
        /** signed, but not by the accepted key of that id */
        BAD_SIGNATURE,
        /** unsigned, and the master requires signatures */
        UNSIGNED_REQUIRED,
        /** unsigned, under the id of a minion that signs */
        UNSIGNED_PINNED;

        public boolean accepted() {
            return this == VERIFIED || this == UNVERIFIED;
        }
    }

    private final MinionKeys keys;
    private final SigningPins pins;
    private final BooleanSupplier requireSignature;
    private final AtomicBoolean explained = new AtomicBoolean();

    /** @param requireSignature {@code require_minion_sign_messages}, read on each call so a reload applies */
    public MinionTrust(MinionKeys keys, BooleanSupplier requireSignature) {
        this.keys = keys;
        this.pins = keys.signingPins();
        this.requireSignature = requireSignature;
    }

    /** Judges a request load of {@code id}, whose accepted key is {@code key}; a valid signature pins the id. */
    public Verdict judge(String id, PublicKey key, Map<String, Object> load) {
        if (load.containsKey(MinionSignature.FIELD)) {
            if (!MinionSignature.valid(load, key)) {
                return Verdict.BAD_SIGNATURE;
            }
            pin(id, key);
            return Verdict.VERIFIED;
        }
        if (requireSignature.getAsBoolean()) {
            return Verdict.UNSIGNED_REQUIRED;
        }
        return pins.pinned(id, key) ? Verdict.UNSIGNED_PINNED : Verdict.UNVERIFIED;
    }

    /**
     * Judges a request of {@code id} that carries another proof of its sender than a signature (a return MAC, made
     * with a secret only the holder of its accepted key could open): a valid one pins the id as a signature does.
     */
    public Verdict judgeProof(String id, PublicKey key, boolean proofValid) {
        if (!proofValid) {
            return Verdict.BAD_SIGNATURE;
        }
        pin(id, key);
        return Verdict.VERIFIED;
    }

    /** {@code id} signed a request with its accepted key (e.g. its {@code _pillar} load): pin it. */
    public void proved(String id) {
        keys.acceptedKey(id).ifPresent(key -> pin(id, key));
    }

    /**
     * A minion announced its start (the last step of its sign-in): a signed announcement pins it; a
     * minion still unpinned gets the one WARN that says what that means and how to make it strict.
     */
    public void started(String id, PublicKey key, Map<String, Object> load) {
        if (load.containsKey(MinionSignature.FIELD) && MinionSignature.valid(load, key)) {
            pin(id, key);
            return;
        }
        if (pins.pinned(id, key)) {
            return;
        }
        // how to make it strict is said once per master process: a restart of a fleet of salt-minions in their
        // default config would otherwise write it once per minion (1,000 lines of ~480 characters for 1,000)
        boolean explain = explained.compareAndSet(false, true);
        if (requireSignature.getAsBoolean()) {
            log.warn("{} does not sign its requests: its returns will be refused (require_minion_sign_messages: True).{}",
                    id, explain ? " Set minion_sign_messages: True on that minion" : "");
        } else {
            log.warn("{} does not sign its requests (a salt-minion in its default config): its returns are accepted"
                    + " only for jobs that target it, once per job, and marked unverified{}", id, explain
                    ? ", because anyone holding the session key could send them under its id. To make it strict, set"
                    + " minion_sign_messages: True on that minion (jsalt then refuses unsigned returns under its id), or"
                    + " require_minion_sign_messages: True on this master to refuse every unsigned return"
                    : "");
        }
    }

    private void pin(String id, PublicKey key) {
        if (pins.pin(id, key)) {
            log.info("{} signs its requests: pinned, unsigned returns under its id are refused from now on", id);
        }
    }
}
