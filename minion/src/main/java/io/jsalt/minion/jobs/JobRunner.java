package io.jsalt.minion.jobs;

import io.jsalt.transport.codec.Printable;
import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.CrypticleAuthException;
import io.jsalt.minion.auth.Session;
import io.jsalt.minion.channel.MasterChannel;
import io.jsalt.minion.modules.ModuleSource;
import io.jsalt.minion.returns.ReturnRoutes;
import io.jsalt.minion.returns.ReturnSeal;
import io.jsalt.minion.returns.Returner;
import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.message.Publication;
import io.jsalt.transport.message.PublishLoad;
import io.jsalt.transport.message.ReturnLoad;
import io.jsalt.transport.target.InvalidTargetException;
import io.jsalt.transport.target.MinionFacts;
import io.jsalt.transport.target.TargetMatcher;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns publications into jobs: verify and decrypt, refuse replays, re-check the target, run the function
 * off the receive thread on a bounded pool ({@code process_count_max} at once), then hand the signed
 * return to the {@link Returner}, which keeps it until the master takes it.
 */
public final class JobRunner implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(JobRunner.class);
    /** How long a job thread beyond the first waits for another job before it ends (after a burst of jobs). */
    static final Duration IDLE_THREAD_KEEP_ALIVE = Duration.ofSeconds(30);

    /**
     * The settings this runner reads; {@code grains} are the minion's own, for re-checking grain targets;
     * {@code replayFile} keeps the publications already run across restarts ({@link ReplayGuard}), null for memory only.
     */
    public record Settings(String minionId, int maxConcurrent, int retryMinSeconds, int retryMaxSeconds, boolean signReturns,
            Supplier<Map<String, Object>> grains, java.nio.file.Path replayFile, Supplier<Map<String, Object>> pillar) {
        /** Settings of a minion without a pillar: a pillar target never matches it. */
        public Settings(String minionId, int maxConcurrent, int retryMinSeconds, int retryMaxSeconds, boolean signReturns,
                Supplier<Map<String, Object>> grains, java.nio.file.Path replayFile) {
            this(minionId, maxConcurrent, retryMinSeconds, retryMaxSeconds, signReturns, grains, replayFile, Map::of);
        }

        /** Settings whose replay guard lives in memory only. */
        public Settings(String minionId, int maxConcurrent, int retryMinSeconds, int retryMaxSeconds, boolean signReturns,
                Supplier<Map<String, Object>> grains) {
            this(minionId, maxConcurrent, retryMinSeconds, retryMaxSeconds, signReturns, grains, null);
        }

        /** Settings of a minion without grains: a grain target never matches it. */
        public Settings(String minionId, int maxConcurrent, int retryMinSeconds, int retryMaxSeconds, boolean signReturns) {
            this(minionId, maxConcurrent, retryMinSeconds, retryMaxSeconds, signReturns, Map::of);
        }
    }

    private final Settings settings;
    private final ModuleSource modules;
    private final RunningJobs running;
    private final boolean ownsRunning;
    private final Returner returner;
    private final boolean ownsReturner;
    private final PrivateKey signingKey;
    /** The one master of the constructor's session: publications handed in without a source come from it. */
    private final PublicationSource defaultSource;
    private final ReplayGuard replays;
    private final JobThreads pool;

    /** A runner whose returns are retried in memory only (three tries): for tests of the runner alone. */
    public JobRunner(Settings settings, ModuleRegistry registry, MasterChannel channel, PrivateKey signingKey,
            Supplier<Session> session, BiConsumer<Session, byte[]> onSessionKeyMismatch) {
        this(settings, ModuleSource.fixed(registry), null,
                new Returner(settings.minionId(), ReturnRoutes.single(channel), null, settings.retryMinSeconds(), settings.retryMaxSeconds(),
                        ReturnSeal.of(settings.signReturns() ? signingKey : null)),
                true, signingKey, session, onSessionKeyMismatch);
    }

    /** A runner that hands its returns to {@code returner}, which the caller owns and closes. */
    public JobRunner(Settings settings, ModuleRegistry registry, Returner returner, PrivateKey signingKey,
            Supplier<Session> session, BiConsumer<Session, byte[]> onSessionKeyMismatch) {
        this(settings, ModuleSource.fixed(registry), null, returner, false, signingKey, session, onSessionKeyMismatch);
    }

    /**
     * A minion's runner: each job leases its functions from {@code modules} (a reload does not change a running
     * job's) and is listed in {@code running}, which the caller owns and closes, while it runs.
     */
    public JobRunner(Settings settings, ModuleSource modules, RunningJobs running, Returner returner, PrivateKey signingKey,
            Supplier<Session> session, BiConsumer<Session, byte[]> onSessionKeyMismatch) {
        this(settings, modules, running, returner, false, signingKey, session, onSessionKeyMismatch);
    }

    /**
     * A minion's runner for publications handed in with their master ({@link #onPublication(byte[], PublicationSource)}):
     * each job leases its functions from {@code modules} and is listed in {@code running} while it runs.
     */
    public JobRunner(Settings settings, ModuleSource modules, RunningJobs running, Returner returner, PrivateKey signingKey) {
        this(settings, modules, running, returner, false, signingKey, () -> null, (failed, frame) -> { });
    }

    private JobRunner(Settings settings, ModuleSource modules, RunningJobs running, Returner returner, boolean ownsReturner,
            PrivateKey signingKey, Supplier<Session> session, BiConsumer<Session, byte[]> onSessionKeyMismatch) {
        this.settings = settings;
        this.modules = modules;
        this.ownsRunning = running == null;
        this.running = running == null ? new RunningJobs(null, settings.minionId()) : running;
        this.returner = returner;
        this.ownsReturner = ownsReturner;
        this.signingKey = signingKey;
        this.defaultSource = new PublicationSource() {
            @Override
            public Session session() {
                return session.get();
            }

            @Override
            public void sessionKeyMismatch(Session failed, byte[] frame) {
                onSessionKeyMismatch.accept(failed, frame);
            }
        };
        this.replays = new ReplayGuard(settings.replayFile());
        this.pool = new JobThreads(settings.maxConcurrent(), IDLE_THREAD_KEEP_ALIVE, "jsalt-job-" + settings.minionId());
    }

    /**
     * Called on the subscription thread for every publication frame. A frame that does not decrypt under
     * the current session key is handed to {@code onSessionKeyMismatch}, which may offer it again after
     * signing in (Salt decodes the same payload again after re-authenticating).
     */
    public void onPublication(byte[] frame) {
        onPublication(frame, defaultSource);
    }

    /**
     * As {@link #onPublication(byte[])}, for a publication from the master {@code from} (one of several): it decrypts
     * under that master's session, and the job's return goes to that master first. A job that two masters both
     * send runs once, from the first.
     */
    public void onPublication(byte[] frame, PublicationSource from) {
        Session s = from.session();
        if (s == null) {
            return;
        }
        Map<String, Object> load;
        try {
            load = Publication.decode(frame, s.crypticle(), s.masterKey(), true);
        } catch (CrypticleAuthException e) {
            from.sessionKeyMismatch(s, frame);
            return;
        } catch (CryptoException | WireException e) {
            log.warn("ignored a publication: {}", Printable.reason(e));
            return;
        }
        PublishLoad job;
        try {
            job = PublishLoad.fromLoad(load);
            if (!TargetMatcher.of(job.tgtType(), job.tgt()).matches(new MinionFacts(settings.minionId(), settings.grains().get(),
                    settings.pillar().get()))) {
                replays.judge(s.crypticle(), from.replayScope(), load.get("serial"), null); // moves the count on; not kept on disk
                return;
            }
        } catch (WireException | InvalidTargetException e) {
            log.warn("ignored a publication: {}", Printable.reason(e));
            return;
        }
        ReplayGuard.Verdict verdict = replays.judge(s.crypticle(), from.replayScope(), load.get("serial"), job.jid());
        if (verdict == ReplayGuard.Verdict.SEEN) {
            // several masters: the same job from another one (relayed), already run from the first
            log.debug("publication of job {} seen before (from another master): not run again", Printable.quoted(job.jid()));
            return;
        }
        if (verdict != ReplayGuard.Verdict.NEW) {
            log.warn("ignored a publication of job {}: replayed (serial or jid seen before) or without a serial",
                    Printable.quoted(job.jid()));
            return;
        }
        Duration timeout = JobTimeout.of(load);
        pool.execute(() -> run(job, timeout, from));
    }

    private void run(PublishLoad job, Duration timeout, PublicationSource from) {
        log.debug("running {} for job {}", job.fun(), job.jid());
        CallResult result;
        RunningJob.Ending ending;
        String out;
        try (ModuleSource.Lease lease = modules.acquire(); RunningJobs.Handle handle = running.start(job, timeout)) {
            result = lease.registry().call(job.fun(), job.arg(), handle.job());
            ending = handle.job().ending();
            out = lease.registry().outputter(job.fun()).orElse(null);
        }
        if (ending == RunningJob.Ending.TIMED_OUT) {
            result = CallResult.failed("ERROR: job " + job.jid() + " timed out after " + seconds(timeout) + " s and was ended",
                    ModuleRegistry.RETCODE_ERROR);
        } else if (ending != null) {
            // as in Salt, where kill_job ends the job's process before it can return anything
            log.info("job {} ({}) was ended by saltutil: no return", job.jid(), job.fun());
            return;
        }
        ReturnLoad ret = new ReturnLoad(settings.minionId(), job.jid(), job.fun(), job.arg(), result.ret(), result.retcode(), result.success(),
                out);
        // unsigned returns are refused by a strict master; minion_sign_messages: False is for lax ones only. A
        // returner that seals returns MACs or signs each one for the session it goes out under.
        boolean signHere = settings.signReturns() && !returner.sealsReturns();
        returner.deliver(signHere ? ret.toSignedLoad(signingKey) : ret.toLoad(), job.jid(),
                from == defaultSource ? null : from);
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? Long.toString(d.toSeconds()) : Double.toString(d.toMillis() / 1000.0);
    }

    /** The jobs running now: for saltutil. */
    public RunningJobs running() {
        return running;
    }

    @Override
    public void close() {
        io.jsalt.minion.jobs.ExecutorShutdown.gracefully(pool, java.time.Duration.ofSeconds(2), "jobs of " + settings.minionId());
        if (ownsRunning) {
            running.close();
        }
        if (ownsReturner) {
            returner.close();
        }
    }
}
