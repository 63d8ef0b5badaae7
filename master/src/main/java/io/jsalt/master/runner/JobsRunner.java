package io.jsalt.master.runner;

import static io.jsalt.master.runner.Parameter.optional;
import static io.jsalt.master.runner.Parameter.required;

import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.JobCache;
import io.jsalt.master.jobs.JobReturn;
import io.jsalt.master.runner.Parameter.Type;
import io.jsalt.transport.target.Glob;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntSupplier;

/**
 * Salt's {@code jobs} runner over the master's job cache: {@code lookup_jid}, {@code list_job},
 * {@code print_job}, {@code list_jobs} and {@code active}, with the parameters (in Salt's order) and the
 * shapes of Salt 3006's salt/runners/jobs.py. jsalt has one job cache: an {@code ext_source} is refused;
 * {@code display_progress} and {@code outputter} are accepted and have no effect.
 */
public final class JobsRunner implements RunnerModule {
    /** Salt's text for an expected minion without a return (jobs.lookup_jid with missing=True). */
    static final String DID_NOT_RETURN = "Minion did not return";
    /** Salt 3006's _format_job_instance for a jid the job cache has no job for. */
    static final String NO_JOB = "Cannot contact returner or no job with this jid";
    /** The functions whose returns a minion sends with {@code out: highstate} (Salt's state module's outputter). */
    static final java.util.Set<String> HIGHSTATE_FUNCTIONS = java.util.Set.of("state.apply", "state.sls",
            "state.highstate", "state.single", "state.test", "state.sls_id", "state.top");

    private final JobCache jobs;
    private final MinionJobs minions;
    private final IntSupplier timeout;

    /**
     * @param timeout seconds {@code active} waits for the minions' answers (the master's {@code timeout},
     *                as Salt's jobs.active)
     */
    public JobsRunner(JobCache jobs, MinionJobs minions, IntSupplier timeout) {
        this.jobs = jobs;
        this.minions = minions;
        this.timeout = timeout;
    }

    @Override
    public List<RunnerFunction> functions() {
        Parameter jid = required("jid", Type.STRING);
        Parameter extSource = optional("ext_source", Type.ANY, null);
        Parameter displayProgress = optional("display_progress", Type.BOOLEAN, false);
        return List.of(
                new RunnerFunction(RunnerSignature.of("jobs.lookup_jid", jid, extSource, optional("returned", Type.BOOLEAN, true),
                        optional("missing", Type.BOOLEAN, false), displayProgress),
                        "Return the returns of a job from the master's job cache, as {minion: return}; missing=True adds the expected minions that did not answer.",
                        a -> withOutputter(cacheOnly(a).string("jid"), lookupJid(a.string("jid"), a.bool("returned"),
                                a.bool("missing")))),
                new RunnerFunction(RunnerSignature.of("jobs.list_job", jid, extSource, displayProgress),
                        "Return a job (Function, Arguments, Target, Target-type, User, StartTime, Minions) and each minion's Result.",
                        a -> listJob(cacheOnly(a).string("jid"))),
                new RunnerFunction(RunnerSignature.of("jobs.print_job", jid, extSource),
                        "Return {jid: job}, the job as jobs.list_job gives it, without its jid.",
                        a -> printJob(cacheOnly(a).string("jid"))),
                new RunnerFunction(RunnerSignature.of("jobs.list_jobs", extSource, optional("outputter", Type.ANY, null),
                        optional("search_metadata", Type.ANY, null), optional("search_function", Type.STRINGS, null),
                        optional("search_target", Type.STRINGS, null), optional("start_time", Type.STRING, null),
                        optional("end_time", Type.STRING, null), displayProgress),
                        "Return the jobs in the master's job cache as {jid: job}, filtered by function, target and start time.",
                        a -> truthy(cacheOnly(a).value("search_metadata"))
                                ? new LinkedHashMap<>() // jsalt's jobs carry no Metadata, which Salt then never matches
                                : listJobs(a.strings("search_function"), a.strings("search_target"), a.string("start_time"),
                                        a.string("end_time"))),
                new RunnerFunction(RunnerSignature.of("jobs.active", displayProgress),
                        "Return the jobs still running on minions (asks them with saltutil.running).", a -> active()));
    }

    /** The arguments, once sure they ask for the master's own job cache. */
    private static RunnerArgs cacheOnly(RunnerArgs a) {
        if (a.value("ext_source") != null) {
            throw new RunnerException("jsalt has no external job cache: ext_source must be None (the master's job cache"
                    + " is the only one)");
        }
        return a;
    }

    /** Python's truth of a value from the wire. */
    private static boolean truthy(Object v) {
        return v != null && !Boolean.FALSE.equals(v) && !"".equals(v) && !(v instanceof Map<?, ?> m && m.isEmpty())
                && !(v instanceof List<?> l && l.isEmpty()) && !(v instanceof Number n && n.doubleValue() == 0);
    }

    /**
     * {@code {id: return}} of the minions that returned (unless {@code returned} is false); with
     * {@code missing}, every expected minion without a return is listed too.
     */
    Map<String, Object> lookupJid(String jid, boolean returned, boolean missing) {
        Map<String, Object> out = new LinkedHashMap<>();
        List<JobReturn> returns = jobs.returns(jid);
        if (returned) {
            for (JobReturn r : returns) {
                out.put(r.id(), r.ret());
            }
        }
        if (missing) {
            List<String> came = returns.stream().map(JobReturn::id).toList();
            jobs.job(jid).map(Job::minions).orElse(List.of()).stream().filter(id -> !came.contains(id))
                    .forEach(id -> out.putIfAbsent(id, DID_NOT_RETURN));
        }
        return out;
    }

    /**
     * Salt's {@code {outputter: highstate, data: {minion: return}}} for a state run, so that salt-run and jsalt-run
     * print the looked-up job as the highstate it was. Salt reads the {@code out} its minions sent with their
     * returns; jsalt's job cache keeps no {@code out}, so the job's function decides: the state functions whose
     * returns name the highstate outputter on both jsalt and Salt minions.
     */
    Object withOutputter(String jid, Map<String, Object> returns) {
        boolean stateRun = !returns.isEmpty() && jobs.job(jid).map(Job::fun).filter(HIGHSTATE_FUNCTIONS::contains).isPresent();
        if (!stateRun) {
            return returns;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("outputter", "highstate");
        out.put("data", returns);
        return out;
    }

    /**
     * The job as Salt's list_job shows it, with its returns under {@code Result}; for a jid without a job,
     * Salt 3006's {@code {"jid", "Error", "StartTime", "Result"}}.
     */
    Map<String, Object> listJob(String jid) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("jid", jid);
        Optional<Job> job = jobs.job(jid);
        if (job.isPresent()) {
            out.putAll(format(job.get()));
            out.put("Minions", job.get().minions());
        } else {
            out.put("Error", NO_JOB);
            out.put("StartTime", JidTime.startTime(jid));
        }
        Map<String, Object> result = new LinkedHashMap<>();
        for (JobReturn r : jobs.returns(jid)) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("return", r.ret());
            one.put("retcode", r.retcode());
            one.put("success", r.success());
            one.put("verified", r.verified()); // jsalt's: false for a minion that does not sign (docs/interop.md)
            result.put(r.id(), one);
        }
        out.put("Result", result);
        return out;
    }

    Map<String, Object> printJob(String jid) {
        Map<String, Object> job = listJob(jid);
        job.remove("jid");
        Map<String, Object> out = new LinkedHashMap<>();
        out.put(jid, job);
        return out;
    }

    /**
     * Every job in the cache matching all given filters: {@code search_function} and {@code search_target}
     * are globs (any of several; a list target matches when any of its ids does), the times bound the
     * start time, both included.
     */
    Map<String, Object> listJobs(List<String> functions, List<String> targets, String startTime, String endTime) {
        String first = startTime == null ? null : JidTime.jidAt("start_time", startTime);
        String last = endTime == null ? null : JidTime.jidAt("end_time", endTime);
        Map<String, Object> out = new LinkedHashMap<>();
        for (Job job : jobs.jobsBetween(first, last)) {
            if (matchesAny(functions, List.of(String.valueOf(job.fun()))) && matchesAny(targets, targetNames(job.tgt()))) {
                out.put(job.jid(), format(job));
            }
        }
        return out;
    }

    /**
     * The jobs running on the minions now (their {@code saltutil.running}), each with the minions running
     * it and those that have returned already.
     */
    Map<String, Object> active() {
        Gathered running = minions.run("saltutil.running", List.of(), "root", Duration.ofSeconds(timeout.getAsInt()));
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        running.returns().forEach((minion, data) -> {
            if (!(data instanceof List<?> procs)) {
                return; // an error text from a minion that cannot list its jobs: Salt skips it too
            }
            for (Object p : procs) {
                if (!(p instanceof Map<?, ?> proc) || !(proc.get("jid") instanceof String jid)
                        || jid.equals(running.jid())) {
                    continue;
                }
                Map<String, Object> entry = out.computeIfAbsent(jid, j -> {
                    Map<String, Object> e = formatProc(j, proc);
                    e.put("Running", new ArrayList<>());
                    e.put("Returned", new ArrayList<>());
                    return e;
                });
                Map<String, Object> pid = new LinkedHashMap<>();
                pid.put(minion, proc.get("pid"));
                runningList(entry).add(pid);
            }
        });
        out.forEach((jid, entry) -> {
            @SuppressWarnings("unchecked")
            List<Object> returned = (List<Object>) entry.get("Returned");
            jobs.returns(jid).forEach(r -> returned.add(r.id()));
        });
        return new LinkedHashMap<>(out);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> runningList(Map<String, Object> entry) {
        return (List<Object>) entry.get("Running");
    }

    /** Salt's _format_jid_instance: Function, Arguments, Target, Target-type, User, StartTime. */
    static Map<String, Object> format(Job job) {
        return formatted(job.jid(), job.fun(), job.arg(), job.tgt(), job.tgtType(), job.user());
    }

    private static Map<String, Object> formatProc(String jid, Map<?, ?> proc) {
        Object arg = proc.get("arg");
        return formatted(jid, proc.get("fun"), arg instanceof List<?> l ? l : null, proc.get("tgt"), proc.get("tgt_type"),
                proc.get("user"));
    }

    private static Map<String, Object> formatted(String jid, Object fun, List<?> arg, Object tgt, Object tgtType, Object user) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("Function", fun == null ? "unknown-function" : fun);
        out.put("Arguments", arg == null ? List.of() : new ArrayList<>(arg));
        out.put("Target", tgt == null ? "unknown-target" : tgt);
        out.put("Target-type", tgtType == null ? "list" : tgtType); // Salt 3006's default
        out.put("User", user == null || "".equals(user) ? "root" : user);
        out.put("StartTime", JidTime.startTime(jid));
        return out;
    }

    private static List<String> targetNames(Object tgt) {
        if (tgt instanceof List<?> l) {
            return l.stream().map(String::valueOf).toList();
        }
        return List.of(String.valueOf(tgt));
    }

    /** True without filters; else when any glob matches any of the names (Salt's fnmatch loop). */
    private static boolean matchesAny(List<String> globs, List<String> names) {
        if (globs.isEmpty()) {
            return true;
        }
        for (String glob : globs) {
            var p = Glob.compile(glob);
            for (String name : names) {
                if (p.matcher(name).matches()) {
                    return true;
                }
            }
        }
        return false;
    }
}
