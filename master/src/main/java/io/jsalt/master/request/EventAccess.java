package io.jsalt.master.request;

import io.jsalt.master.auth.Eauth;
import io.jsalt.master.auth.EauthException;
import io.jsalt.master.auth.EauthSettings;
import io.jsalt.master.jobs.JobCache;
import io.jsalt.master.runner.RunnerCalls;
import io.jsalt.transport.codec.SaltPack;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code event_access} ({@code {"cmd", "token", "tag"?}}): which events of the master's bus an eauth user may
 * read, decided here so that jsalt-api (which reads the bus for its {@code GET /events} streams) only filters.
 * Salt's salt-api streams the whole bus to any valid token, root's job returns included, which undoes the rule
 * that an eauth user reads only their own jobs ({@code job_returns}). The answer:
 * {@code {"name", "all", "readable"}}: {@code all} when the user reads everything (the {@code @events} right, or
 * {@code eauth_events: all} in the master config, which restores salt-api's behaviour); {@code readable} for the
 * tag asked about: a {@code salt/job/<jid>/...} event (or the bare {@code <jid>} announcement of a publish) when
 * the job is theirs and within their rights now (as
 * {@code job_returns}), a {@code salt/run/<jid>/...} event when the runner call was theirs and still allowed, a
 * {@code salt/wheel/<jid>/...} event (wheel_async) when the wheel call was theirs and still allowed, any other event
 * only with {@code all}. A dead token is the usual token error, so the API ends the stream.
 */
public final class EventAccess implements ClearCommand {
    private static final Pattern JOB_TAG = Pattern.compile("salt/(job|run|wheel)/(\\d{20})(/.*)?");

    private final Eauth eauth;
    private final EauthSettings settings;
    private final JobCache jobs;
    private final RunnerCalls runnerCalls;
    private final RunnerCalls wheelCalls;
    private final JobReadRule rule;

    /** @param wheelCalls the asynchronous wheel calls by jid ({@link WheelHandler}) */
    public EventAccess(Eauth eauth, EauthSettings settings, JobCache jobs, RunnerCalls runnerCalls, RunnerCalls wheelCalls,
            JobReadRule rule) {
        this.wheelCalls = wheelCalls;
        this.eauth = eauth;
        this.settings = settings;
        this.jobs = jobs;
        this.runnerCalls = runnerCalls;
        this.rule = rule;
    }

    @Override
    public byte[] handle(Map<String, Object> load) {
        if (load.get("token") == null) {
            return SaltPack.pack(RequestDispatcher.error(Eauth.BAD_TOKEN));
        }
        Eauth.Caller caller;
        try {
            caller = eauth.caller(Map.of("token", load.get("token")));
        } catch (EauthException e) {
            return SaltPack.pack(RequestDispatcher.error(e.getMessage()));
        }
        boolean all = settings.current().eventsForAll() || caller.perms().allowsAllEvents();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", caller.name());
        body.put("all", all);
        if (load.get("tag") instanceof String tag) {
            body.put("readable", all || ownJob(caller, tag));
        }
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("enc", "clear");
        envelope.put("load", body);
        return SaltPack.pack(envelope);
    }

    private boolean ownJob(Eauth.Caller caller, String tag) {
        Matcher m = JOB_TAG.matcher(tag);
        boolean bareJid = tag.matches("\\d{20}"); // the publish's {"minions"} announcement, a job's event too
        if (!m.matches() && !bareJid) {
            return false;
        }
        String jid = bareJid ? tag : m.group(2);
        if (bareJid || m.group(1).equals("job")) {
            return jobs.job(jid).map(job -> rule.mayRead(caller, job)).orElse(false);
        }
        if (m.group(1).equals("wheel")) {
            return wheelCalls.find(jid).map(call -> rule.mayRead(caller, "wheel", call)).orElse(false);
        }
        return runnerCalls.find(jid).map(call -> rule.mayRead(caller, call)).orElse(false);
    }
}
