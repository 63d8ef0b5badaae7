package io.jsalt.master.request;

import io.jsalt.master.events.EventBus;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.JobCache;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.publish.JobPublisher;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.message.PublishLoad;
import io.jsalt.transport.message.PublishRequest;
import io.jsalt.transport.target.TargetMatcher;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code publish} from a local client: authenticate the client key, resolve the expected minions from the
 * accepted keys, allocate the jid, store the job, fire {@code salt/job/<jid>/new}, then publish. Answers
 * {@code {"enc": "clear", "load": {"jid", "minions", "missing"}}}.
 */
public final class PublishHandler implements ClearCommand {
    private static final Logger log = LoggerFactory.getLogger(PublishHandler.class);

    private final ClientKey clientKey;
    private final KeyStore keys;
    private final JobCache jobs;
    private final Jids jids;
    private final EventBus events;
    private final JobPublisher publisher;

    public PublishHandler(ClientKey clientKey, KeyStore keys, JobCache jobs, Jids jids, EventBus events, JobPublisher publisher) {
        this.clientKey = clientKey;
        this.keys = keys;
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
        TargetMatcher matcher = TargetMatcher.of(req.tgtType(), req.tgt());
        List<String> minions = matcher.filter(keys.list(KeyState.ACCEPTED));
        List<String> missing = missingFromList(req, minions);
        String jid = jids.next();
        jobs.saveJob(new Job(jid, req.fun(), req.arg(), req.tgt(), req.tgtType(), req.user(), minions, Instant.now()));

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

        publisher.publish(new PublishLoad(req.fun(), req.arg(), req.tgt(), jid, "", req.tgtType(), req.user()), minions);
        log.info("published job {} ({}) to {} minion(s)", jid, req.fun(), minions.size());

        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("jid", jid);
        reply.put("minions", minions);
        reply.put("missing", missing);
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("enc", "clear");
        envelope.put("load", reply);
        return SaltPack.pack(envelope);
    }

    /** For a list target, the named ids that are not accepted minions (Salt reports them as missing). */
    private static List<String> missingFromList(PublishRequest req, List<String> minions) {
        List<String> missing = new ArrayList<>();
        if ("list".equals(req.tgtType())) {
            Object tgt = req.tgt();
            List<?> named = tgt instanceof List<?> l ? l : List.of(((String) tgt).split(","));
            for (Object o : named) {
                String id = String.valueOf(o).trim();
                if (!id.isEmpty() && !minions.contains(id)) {
                    missing.add(id);
                }
            }
        }
        return missing;
    }
}
