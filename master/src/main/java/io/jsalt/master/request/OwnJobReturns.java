package io.jsalt.master.request;

import io.jsalt.master.auth.Eauth;
import io.jsalt.master.auth.EauthException;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.JobCache;
import io.jsalt.master.jobs.JobReturn;
import io.jsalt.master.targeting.TargetResolver;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code job_returns} ({@code {"cmd", "jid", "token" | "eauth"/"username"/"password"}}): the returns the job
 * cache holds for a job, for an eauth user who published it, so that {@code jsalt -a} gathers returns
 * without the master's event socket (which only the master's user may open). A job of another user, or an
 * unknown jid, is one refusal (nobody learns which jids exist); the root key may read any job.
 */
public final class OwnJobReturns implements ClearCommand {
    private final Eauth eauth;
    private final ClientKey clientKey;
    private final JobCache jobs;
    private final JobReadRule rule;

    public OwnJobReturns(Eauth eauth, ClientKey clientKey, JobCache jobs, TargetResolver targets) {
        this.eauth = eauth;
        this.clientKey = clientKey;
        this.jobs = jobs;
        this.rule = new JobReadRule(targets);
    }

    @Override
    public byte[] handle(Map<String, Object> load) {
        String jid = Wire.string(load, "jid");
        boolean root = clientKey.matches(load.get("key"));
        Eauth.Caller caller = null;
        if (!root) {
            if (!Eauth.names(load)) {
                return SaltPack.pack(RequestDispatcher.error("Authentication error occurred."));
            }
            try {
                caller = eauth.caller(load, SourceAddress.of(load, clientKey));
            } catch (EauthException e) {
                return SaltPack.pack(RequestDispatcher.error(e.getMessage()));
            }
        }
        // the job cache is asked only once the caller is known: a lookup may be costly (a spool during an outage)
        Optional<Job> job = jobs.job(jid);
        if (!root && (job.isEmpty() || !rule.mayRead(caller, job.get()))) {
            return SaltPack.pack(RequestDispatcher.error(EauthGuard.DENIED));
        }
        Map<String, Object> returns = new LinkedHashMap<>();
        if (job.isPresent()) {
            for (JobReturn r : jobs.returns(jid)) {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("return", r.ret());
                one.put("retcode", r.retcode());
                one.put("success", r.success());
                one.put("verified", r.verified());
                returns.put(r.id(), one);
            }
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("jid", jid);
        body.put("returns", returns);
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("enc", "clear");
        envelope.put("load", body);
        return SaltPack.pack(envelope);
    }
}
