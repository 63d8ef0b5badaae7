package io.jsalt.minion.jobs;

import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.CrypticleAuthException;
import io.jsalt.minion.auth.Session;
import io.jsalt.minion.channel.MasterChannel;
import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.transport.TransportException;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.message.Publication;
import io.jsalt.transport.message.PublishLoad;
import io.jsalt.transport.message.ReturnLoad;
import io.jsalt.transport.target.InvalidTargetException;
import io.jsalt.transport.target.TargetMatcher;
import java.security.PrivateKey;
import java.util.Map;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns publications into jobs: verify and decrypt, refuse replays, re-check the target, run the function
 * off the receive thread on a bounded pool ({@code process_count_max} at once), then send the signed
 * return, retrying after {@code return_retry_timer}..{@code return_retry_timer_max} seconds if the
 * master does not take it.
 */
public final class JobRunner implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(JobRunner.class);
    private static final int RETURN_TRIES = 3;

    /** The settings this runner reads. */
    public record Settings(String minionId, int maxConcurrent, int retryMinSeconds, int retryMaxSeconds, boolean signReturns) {}

    private final Settings settings;
    private final ModuleRegistry registry;
    private final MasterChannel channel;
    private final PrivateKey signingKey;
    private final Supplier<Session> session;
    private final BiConsumer<Session, byte[]> onSessionKeyMismatch;
    private final SerialGuard serials = new SerialGuard();
    private final ScheduledThreadPoolExecutor pool;

    public JobRunner(Settings settings, ModuleRegistry registry, MasterChannel channel, PrivateKey signingKey,
            Supplier<Session> session, BiConsumer<Session, byte[]> onSessionKeyMismatch) {
        this.settings = settings;
        this.registry = registry;
        this.channel = channel;
        this.signingKey = signingKey;
        this.session = session;
        this.onSessionKeyMismatch = onSessionKeyMismatch;
        this.pool = new ScheduledThreadPoolExecutor(settings.maxConcurrent(), r -> {
            Thread t = new Thread(r, "jsalt-job-" + settings.minionId());
            t.setDaemon(true);
            return t;
        });
        pool.setRemoveOnCancelPolicy(true);
    }

    /**
     * Called on the subscription thread for every publication frame. A frame that does not decrypt under
     * the current session key is handed to {@code onSessionKeyMismatch}, which may offer it again after
     * signing in (Salt decodes the same payload again after re-authenticating).
     */
    public void onPublication(byte[] frame) {
        Session s = session.get();
        if (s == null) {
            return;
        }
        Map<String, Object> load;
        try {
            load = Publication.decode(frame, s.crypticle(), s.masterKey(), true);
        } catch (CrypticleAuthException e) {
            onSessionKeyMismatch.accept(s, frame);
            return;
        } catch (CryptoException | WireException e) {
            log.warn("ignored a publication: {}", e.getMessage());
            return;
        }
        if (!serials.accept(s.crypticle(), load.get("serial"))) {
            log.warn("ignored a publication with a replayed or missing serial");
            return;
        }
        PublishLoad job;
        try {
            job = PublishLoad.fromLoad(load);
            if (!TargetMatcher.of(job.tgtType(), job.tgt()).matches(settings.minionId())) {
                return;
            }
        } catch (WireException | InvalidTargetException e) {
            log.warn("ignored a publication: {}", e.getMessage());
            return;
        }
        pool.execute(() -> run(job));
    }

    private void run(PublishLoad job) {
        log.debug("running {} for job {}", job.fun(), job.jid());
        CallResult result = registry.call(job.fun(), job.arg());
        ReturnLoad ret = new ReturnLoad(settings.minionId(), job.jid(), job.fun(), job.arg(), result.ret(), result.retcode(), result.success());
        // unsigned returns are refused by a strict master; minion_sign_messages: False is for lax ones only
        deliver(settings.signReturns() ? ret.toSignedLoad(signingKey) : ret.toLoad(), job.jid(), 1);
    }

    private void deliver(Map<String, Object> load, String jid, int attempt) {
        try {
            if (Boolean.FALSE.equals(channel.send(load))) {
                log.warn("the master refused the return of job {}", jid);
            }
            return;
        } catch (TransportException | io.jsalt.minion.channel.NotSignedInException e) {
            if (attempt >= RETURN_TRIES) {
                log.error("return of job {} not delivered after {} tries: {}", jid, attempt, e.getMessage());
                return;
            }
            long delayMs = ThreadLocalRandom.current().nextLong(settings.retryMinSeconds() * 1000L,
                    Math.max(settings.retryMinSeconds(), settings.retryMaxSeconds()) * 1000L + 1);
            log.info("return of job {} not delivered ({}); retrying in {} ms", jid, e.getMessage(), delayMs);
            pool.schedule(() -> deliver(load, jid, attempt + 1), delayMs, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
