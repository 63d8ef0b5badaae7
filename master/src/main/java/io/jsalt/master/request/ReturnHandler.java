package io.jsalt.master.request;

import io.jsalt.transport.codec.Printable;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.JobCache;
import io.jsalt.master.jobs.JobReturn;
import io.jsalt.master.jobs.ReturnSaved;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.keys.MinionKeys;
import io.jsalt.master.targeting.TargetResolver;
import io.jsalt.master.session.ReturnMacKeys;
import io.jsalt.transport.message.ReturnLoad;
import io.jsalt.transport.message.ReturnMac;
import java.security.PublicKey;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code _return}: a job result from a minion. Salt takes a return for any id from any holder of the
 * session key; jsalt judges its signature by the trust policy ({@link MinionTrust}: signed by the accepted
 * key of the minion it names, or unsigned from a minion that has never signed, then marked unverified),
 * counts it only for a job the master issued and that targeted that minion, and only once per (jid, id): a
 * second one is answered {@code True} (stored already, so the minion forgets it: with several masters on one
 * job cache, another master may have stored it and died before answering) and neither stored nor fired again.
 * A return from a jsalt minion may carry a MAC with its sign-in's secret ({@link ReturnMacKeys}) in place of a
 * signature; it binds the return to that minion as the signature does. Stored first, then fired as
 * {@code salt/job/<jid>/ret/<id>} with {@code verified}, then answered ({@link DeferredReply}: the MWorker hands the
 * return to the job cache and goes on; the event and the reply follow the row's commit). A return whose jid
 * is {@code "req"} (salt-call, a scheduled job) gets a master-issued jid and a stored one-minion job, and
 * is answered {@code {"jid": <jid>}} instead of {@code true}.
 */
public final class ReturnHandler implements AesCommand {
    private static final Logger log = LoggerFactory.getLogger(ReturnHandler.class);

    private final MinionKeys keys;
    private final JobCache jobs;
    private final EventBus events;
    private final Jids jids;
    private final MinionTrust trust;
    private final TargetResolver targets;
    private final ReturnMacKeys returnMacs;
    private final RecentJobs recentJobs;

    public ReturnHandler(MinionKeys keys, JobCache jobs, EventBus events, Jids jids, MinionTrust trust, TargetResolver targets) {
        this(keys, jobs, events, jids, trust, targets, null);
    }

    /** @param returnMacs checks the MAC of returns from jsalt minions given a secret at sign-in; null: a MAC never verifies */
    public ReturnHandler(MinionKeys keys, JobCache jobs, EventBus events, Jids jids, MinionTrust trust, TargetResolver targets,
            ReturnMacKeys returnMacs) {
        this.returnMacs = returnMacs;
        this.recentJobs = new RecentJobs(jobs);
        this.keys = keys;
        this.jobs = jobs;
        this.events = events;
        this.jids = jids;
        this.trust = trust;
        this.targets = targets;
    }

    @Override
    public Object handle(Map<String, Object> load, String nonce) {
        ReturnLoad ret = ReturnLoad.fromLoad(load);
        Optional<PublicKey> key = keys.acceptedKey(ret.id());
        if (key.isEmpty()) {
            log.warn("return for job {} refused: {} is not an accepted minion", Printable.quoted(ret.jid()), ret.id());
            return false;
        }
        // a MAC binds the return as a signature does, for microseconds instead of an RSA operation (ReturnMac)
        MinionTrust.Verdict verdict = ReturnMac.carriedBy(load)
                ? trust.judgeProof(ret.id(), key.get(), returnMacs != null && returnMacs.valid(ret.id(), key.get(), load))
                : trust.judge(ret.id(), key.get(), load);
        switch (verdict) {
            case BAD_SIGNATURE -> log.warn("return for job {} refused: not signed by the accepted key of {}", Printable.quoted(ret.jid()), ret.id());
            case UNSIGNED_REQUIRED -> log.warn("return for job {} from {} refused: unsigned (require_minion_sign_messages is on; "
                    + "a salt-minion needs minion_sign_messages: True)", Printable.quoted(ret.jid()), ret.id());
            case UNSIGNED_PINNED -> log.warn("return for job {} refused: unsigned, and {} signs its returns (delete its key"
                    + " to forget that)", Printable.quoted(ret.jid()), ret.id());
            default -> { }
        }
        if (!verdict.accepted()) {
            return false;
        }
        boolean verified = verdict == MinionTrust.Verdict.VERIFIED;
        boolean fresh = "req".equals(ret.jid()); // salt-call and scheduled jobs ask the master for a jid
        String jid = fresh ? jids.next() : ret.jid();
        if (!Jids.isValid(jid)) {
            log.warn("return from {} refused: malformed jid", ret.id());
            return false;
        }
        if (fresh) {
            // the minion started this job itself: it cannot name an operator (a "user" it sends is not taken)
            storeCallerJob(jid, ret, "minion:" + ret.id());
        } else if (!targeted(jid, ret.id())) {
            return false;
        }
        JobReturn row = new JobReturn(jid, ret.id(), ret.ret(), ret.retcode(), ret.success(), Instant.now(), verified);
        Map<String, Object> event = new LinkedHashMap<>(load);
        event.remove("sig");
        event.remove(ReturnMac.FIELD);
        event.put("jid", jid);
        event.put("verified", verified);
        // answered once the row has committed (never lost once acknowledged), the MWorker not waiting for it
        return new DeferredReply(fresh ? Map.of("jid", jid) : true, outcome -> jobs.saveReturn(row, new ReturnSaved() {
            @Override
            public void saved(boolean stored) {
                try {
                    if (stored) {
                        // after the commit, as before: whoever the event wakes reads the row back
                        events.fire("salt/job/" + jid + "/ret/" + row.id(), event);
                    } else {
                        // stored already (by this master, or by another of a shared job cache before it died without
                        // answering): the minion may forget it, so the answer is true; nothing is stored or fired twice
                        log.info("return for job {} from {} already stored: not stored again", jid, row.id());
                    }
                } finally {
                    outcome.succeeded();
                }
            }

            @Override
            public void failed(RuntimeException e) {
                outcome.failed(e);
            }
        }));
    }

    /**
     * A return counts only for a job the master issued that targeted that minion: listed when it was
     * published, or reached by its target since (grains then unknown, or a minion accepted later).
     */
    private boolean targeted(String jid, String id) {
        Optional<RecentJobs.Entry> job = recentJobs.job(jid);
        if (job.isEmpty()) {
            log.warn("return for job {} from {} refused: no such job was issued", jid, id);
            return false;
        }
        Job j = job.get().job();
        if (job.get().minions().contains(id) || targets.mayReach(j.tgtType(), j.tgt(), id)) {
            return true;
        }
        log.warn("return for job {} from {} refused: that job did not target it", jid, id);
        return false;
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
