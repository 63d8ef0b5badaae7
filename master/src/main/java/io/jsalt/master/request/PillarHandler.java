package io.jsalt.master.request;

import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.Rsa;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.message.MinionId;
import io.jsalt.transport.message.MinionSignature;
import io.jsalt.transport.message.RequestStamp;
import io.jsalt.master.keys.MinionKeys;
import io.jsalt.master.pillar.PillarCache;
import io.jsalt.master.pillar.PillarCompiler;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code _pillar}: a minion asks for its pillar right after sign-in (a salt-minion does not start without an
 * answer) and whenever it refreshes it. jsalt compiles that minion's pillar ({@link PillarCompiler}, with the
 * grains the request carries), encrypts it for that minion alone with a one-off key (Salt's send_private), keeps
 * the grains for targeting and the pillar for pillar targeting ({@link PillarCache}). Pillar values are never
 * logged.
 *
 * <p>Salt takes the grains for whatever {@code id} the load names. A jsalt minion signs the load as it
 * signs returns ({@link MinionSignature}), so its grains are kept as <em>verified</em>; a load signed by
 * another key is refused; a salt-minion's unsigned load is still served and its grains kept as
 * unverified, which the target resolver never lets exclude a minion.
 */
public final class PillarHandler implements AesCommand {
    private static final Logger log = LoggerFactory.getLogger(PillarHandler.class);

    private final MinionKeys keys;
    private final PrivateKey masterKey;
    private final GrainsSink grainsSink;
    private final PillarCompiler compiler;
    private final PillarCache pillars;

    /** Where reported grains go ({@code MinionDataCache::putGrains}). */
    @FunctionalInterface
    public interface GrainsSink {
        /**
         * @param verified signed by the accepted key of {@code id}
         * @param stamp    when the minion sent them ({@link RequestStamp}), covered by its signature; null if unknown
         */
        void accept(String id, Map<String, Object> grains, boolean verified, Long stamp);
    }

    /** A handler that serves an empty pillar (no pillar_roots): for tests of the reply's form. */
    public PillarHandler(MinionKeys keys, PrivateKey masterKey, GrainsSink grainsSink) {
        this(keys, masterKey, grainsSink, null, new PillarCache());
    }

    /**
     * @param compiler compiles each minion's pillar; null serves an empty one
     * @param pillars  where compiled pillars are kept for pillar targeting
     */
    public PillarHandler(MinionKeys keys, PrivateKey masterKey, GrainsSink grainsSink, PillarCompiler compiler,
            PillarCache pillars) {
        this.keys = keys;
        this.masterKey = masterKey;
        this.grainsSink = grainsSink;
        this.compiler = compiler;
        this.pillars = pillars;
    }

    @Override
    public Object handle(Map<String, Object> load, String nonce) {
        String id = MinionId.require(Wire.string(load, "id"));
        Optional<PublicKey> key = keys.acceptedKey(id);
        if (key.isEmpty()) {
            log.warn("pillar refused: {} is not an accepted minion", id);
            return false;
        }
        boolean signed = load.containsKey(MinionSignature.FIELD);
        if (signed && !MinionSignature.valid(load, key.get())) {
            log.warn("pillar refused: the request for {} is not signed by its accepted key", id);
            return false;
        }
        Map<String, Object> grains = load.get("grains") instanceof Map<?, ?> ? Wire.map(load, "grains") : Map.of();
        if (load.get("grains") instanceof Map<?, ?>) {
            grainsSink.accept(id, grains, signed, signed ? RequestStamp.of(load) : null);
        }
        return new PrivateReply(privateReply(key.get(), pillarOf(id, grains, load, signed), nonce));
    }

    /** The compiled pillar; kept for targeting unless the minion overrode part of it. */
    private Map<String, Object> pillarOf(String id, Map<String, Object> grains, Map<String, Object> load, boolean signed) {
        if (compiler == null) {
            return Map.of();
        }
        Map<String, Object> override = load.get("pillar_override") instanceof Map<?, ?> ? Wire.map(load, "pillar_override") : Map.of();
        Map<String, Object> pillar = compiler.compile(new PillarCompiler.Request(id, grains, text(load.get("saltenv")),
                text(load.get("pillarenv")), override));
        if (override.isEmpty()) {
            pillars.put(id, pillar, signed);
        }
        log.debug("pillar compiled for {}: {} top-level keys", id, pillar.size());
        return pillar;
    }

    private static String text(Object value) {
        return value instanceof String s && !s.isEmpty() ? s : null;
    }

    /** Signs {key, pillar, nonce} so the minion knows this reply answers its own request. */
    Map<String, Object> privateReply(PublicKey minionKey, Map<String, Object> pillar, String nonce) {
        String oneOff = Crypticle.generateKeyString();
        byte[] encryptedKey = Rsa.oaepEncrypt(minionKey, oneOff.getBytes(StandardCharsets.US_ASCII));
        Map<String, Object> signed = new LinkedHashMap<>();
        signed.put("key", encryptedKey);
        signed.put("pillar", pillar);
        signed.put("nonce", nonce);
        byte[] data = SaltPack.pack(signed);
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("data", data);
        envelope.put("sig", Rsa.sign(masterKey, data));
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("key", encryptedKey);
        reply.put("pillar", new Crypticle(oneOff).seal(SaltPack.pack(envelope), null));
        return reply;
    }
}
