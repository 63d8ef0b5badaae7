package io.jsalt.master.request;

import io.jsalt.transport.codec.Printable;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.JobCache;
import io.jsalt.master.jobs.JobReturn;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.transport.message.ReturnLoad;
import java.security.PublicKey;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code _return}: a job result from a minion. Salt takes a return for any id from any holder of the
 * session key; jsalt counts it only when it is signed by the accepted key of the minion it names, and
 * only once per (jid, id). Stored first, then fired as {@code salt/job/<jid>/ret/<id>}. A return whose jid
 * is {@code "req"} (salt-call) gets a master-issued jid and a stored one-minion job, and is answered
 * {@code {"jid": <jid>}} instead of {@code true}.
 */
public final class ReturnHandler implements AesCommand {
    private static final Logger log = LoggerFactory.getLogger(ReturnHandler.class);

    private final KeyStore keys;
    private final JobCache jobs;
    private final EventBus events;
    private final Jids jids;
    private final BooleanSupplier requireSignature;

    public ReturnHandler(KeyStore keys, JobCache jobs, EventBus events, Jids jids, BooleanSupplier requireSignature) {
        this.keys = keys;
        this.jobs = jobs;
        this.events = events;
        this.jids = jids;
        this.requireSignature = requireSignature;
    }

    @Override
    public Object handle(Map<String, Object> load, String nonce) {
        ReturnLoad ret = ReturnLoad.fromLoad(load);
        Optional<PublicKey> key = keys.acceptedKey(ret.id());
        if (key.isEmpty()) {
            log.warn("return for job {} refused: {} is not an accepted minion", Printable.quoted(ret.jid()), ret.id());
            return false;
        }
        boolean signed = load.containsKey("sig");
        if (signed && !ReturnLoad.signatureValid(load, key.get())) {
            log.warn("return for job {} refused: not signed by the accepted key of {}", Printable.quoted(ret.jid()), ret.id());
            return false;
        }
        if (!signed && requireSignature.getAsBoolean()) {
            log.warn("return for job {} from {} refused: unsigned (require_minion_sign_messages is on; "
                    + "a salt-minion needs minion_sign_messages: True)", Printable.quoted(ret.jid()), ret.id());
            return false;
        }
        boolean fresh = "req".equals(ret.jid()); // salt-call asks the master for a jid
        String jid = fresh ? jids.next() : ret.jid();
        if (!Jids.isValid(jid)) {
            log.warn("return from {} refused: malformed jid", ret.id());
            return false;
        }
        if (fresh) {
            // the minion started this job itself: it cannot name an operator (a "user" it sends is not taken)
            storeCallerJob(jid, ret, "minion:" + ret.id());
        }
        if (!jobs.saveReturn(new JobReturn(jid, ret.id(), ret.ret(), ret.retcode(), ret.success(), Instant.now()))) {
            log.warn("duplicate return for job {} from {} ignored", jid, ret.id());
            return false;
        }
        Map<String, Object> event = new LinkedHashMap<>(load);
        event.remove("sig");
        event.put("jid", jid);
        events.fire("salt/job/" + jid + "/ret/" + ret.id(), event);
        return fresh ? Map.of("jid", jid) : true;
    }

    /**
     * The job a {@code jid: "req"} return stands for (a minion ran it on its own, as salt-call does): stored
     * as Salt's store_job does (tgt_type "glob", tgt the minion id), so it is looked up like any other.
     * Salt fires no {@code new} event for it; jsalt does, so an event watcher sees the job start before its
     * return, as for every other job (docs/protocol.md).
     */
    private void storeCallerJob(String jid, ReturnLoad ret, String user) {
        List<String> minions = List.of(ret.id());
        jobs.saveJob(new Job(jid, ret.fun(), ret.funArgs(), ret.id(), "glob", user, minions, Instant.now()));
        Map<String, Object> created = new LinkedHashMap<>();
        created.put("jid", jid);
        created.put("tgt_type", "glob");
        created.put("tgt", ret.id());
        created.put("user", user);
        created.put("fun", ret.fun());
        created.put("arg", ret.funArgs());
        created.put("minions", minions);
        created.put("missing", List.of());
        events.fire("salt/job/" + jid + "/new", created);
    }
}
