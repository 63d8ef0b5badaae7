package io.jsalt.master.request;

import io.jsalt.transport.codec.Printable;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.JobCache;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.publish.JobPublisher;
import io.jsalt.master.targeting.TargetResolver;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.message.PublishLoad;
import io.jsalt.transport.message.PublishRequest;
import io.jsalt.transport.target.InvalidTargetException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code publish} from a local client: authenticate the client key, resolve the target over the accepted
 * keys and the cached grains, allocate the jid, store the job, fire {@code salt/job/<jid>/new}, then
 * publish to the expected and the undecided minions (grains unknown: each re-checks the target itself).
 * Answers {@code {"enc": "clear", "load": {"jid", "minions", "missing", "undecided"}}}, where
 * {@code minions} are the expected ones only; a target that cannot be matched is an error reply.
 */
public final class PublishHandler implements ClearCommand {
    private static final Logger log = LoggerFactory.getLogger(PublishHandler.class);

    private final ClientKey clientKey;
    private final TargetResolver targets;
    private final JobCache jobs;
    private final Jids jids;
    private final EventBus events;
    private final JobPublisher publisher;

    public PublishHandler(ClientKey clientKey, TargetResolver targets, JobCache jobs, Jids jids, EventBus events, JobPublisher publisher) {
        this.clientKey = clientKey;
        this.targets = targets;
        this.jobs = jobs;
        this.jids = jids;
        this.events = events;
        this.publisher = publisher;
    }

    @Override
    public byte[] handle(Map<String, Object> load) {
        PublishRequest req = PublishRequest.fromLoad(load);
        if (!clientKey.matches(req.key())) {
            log.warn("publish refused: bad client key");
            return SaltPack.pack(RequestDispatcher.error("Authentication error occurred."));
        }
        TargetResolver.Resolution target;
        try {
            target = targets.resolve(req.tgtType(), req.tgt());
        } catch (InvalidTargetException e) {
            log.warn("publish refused: invalid target: {}", Printable.reason(e));
            return SaltPack.pack(RequestDispatcher.error("Invalid target: " + e.getMessage()));
        }
        List<String> minions = target.expected();
        List<String> missing = target.missing();
        String jid = jids.next();
        jobs.saveJob(new Job(jid, req.fun(), req.arg(), req.tgt(), req.tgtType(), req.user(), minions, Instant.now()));

        // Salt's master announces the targeted minions under the bare jid first (master.py _prep_pub); salt-api's
        // event streams show it
        events.fire(jid, Map.of("minions", minions));
        Map<String, Object> created = new LinkedHashMap<>();
        created.put("jid", jid);
        created.put("tgt_type", req.tgtType());
        created.put("tgt", req.tgt());
        created.put("user", req.user());
        created.put("fun", req.fun());
        created.put("arg", req.arg());
        created.put("minions", minions);
        created.put("missing", missing);
        events.fire("salt/job/" + jid + "/new", created);

        // a nodegroup goes out as its compound expression: minions have no nodegroups
        publisher.publish(new PublishLoad(req.fun(), req.arg(), target.tgt(), jid, "", target.tgtType(), req.user()), target.publishTo());
        log.info("published job {} ({}) to {} minion(s), {} of them undecided", jid, req.fun(), target.publishTo().size(),
                target.undecided().size());

        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("jid", jid);
        reply.put("minions", minions);
        reply.put("missing", missing);
        reply.put("undecided", target.undecided());
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("enc", "clear");
        envelope.put("load", reply);
        return SaltPack.pack(envelope);
    }
}
