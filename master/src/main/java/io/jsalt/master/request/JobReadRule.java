package io.jsalt.master.request;

import io.jsalt.master.auth.ArgConditions;
import io.jsalt.master.auth.Eauth;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.runner.RunnerCalls;
import io.jsalt.master.targeting.TargetResolver;
import java.util.LinkedHashSet;

/**
 * Whether an eauth user may read a job (its returns, its events): the job's user is the caller, and the
 * caller's rights would let them make that call now. A job's user is only a name (the root CLI stores its OS
 * user's), so the name alone would let an eauth user called {@code root} read root's jobs.
 */
public final class JobReadRule {
    private final TargetResolver targets;

    public JobReadRule(TargetResolver targets) {
        this.targets = targets;
    }

    /** A published job: the caller's, and they may publish its function with its arguments to its minions now. */
    public boolean mayRead(Eauth.Caller caller, Job job) {
        return caller.name().equals(job.user()) && caller.perms().allowsPublish(job.fun(), ArgConditions.ofPublish(job.arg()),
                new LinkedHashSet<>(job.minions()), (tgt, tgtType) -> EauthGuard.expand(targets, tgt, tgtType));
    }

    /**
     * A runner call: the caller's, and still within their runner rights; when its arguments were too big to keep,
     * only an unconditional right (no argument condition) will do.
     */
    public boolean mayRead(Eauth.Caller caller, RunnerCalls.Call call) {
        return mayRead(caller, "runner", call);
    }

    /** A runner or wheel ({@code kind}) call: the caller's, and still within their rights of that kind. */
    public boolean mayRead(Eauth.Caller caller, String kind, RunnerCalls.Call call) {
        return caller.name().equals(call.user()) && caller.perms().allowsSpecial(kind, call.fun(),
                call.argsKept() ? ArgConditions.of(call.arg(), call.kwarg()) : ArgConditions.UNKNOWN);
    }
}
