package io.jsalt.minion.returns;

import io.jsalt.crypto.CryptoException;
import io.jsalt.minion.auth.Session;
import io.jsalt.minion.channel.MasterRequests;
import io.jsalt.minion.channel.NotSignedInException;
import io.jsalt.transport.TransportException;
import io.jsalt.transport.codec.WireException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends returns to the master. A return goes out at once on the caller's thread; when the master does
 * not answer (away, restarting, this minion not signed in) it goes to the {@link ReturnOutbox} and is sent
 * again from there after a random {@code return_retry_timer}..{@code return_retry_timer_max} seconds and
 * after every sign-in, until the master answers. Any answer ends a return's life: {@code True}, or a
 * refusal, which for a second (jid, id) is the master saying it already has it, so nothing is sent twice
 * once the master has answered. Without an outbox (tests of the job runner alone) a return is tried three
 * times, as Salt does. Retries run on this returner's own thread.
 *
 * <p>With several masters ({@link ReturnRoutes}) a return goes to the master its job came from first, and to
 * the others signed in when that one does not answer (a master that died mid-job): {@code True} from any ends
 * it; a refusal ends it only from the job's own master, since another may not know the job (its own job
 * cache), and that master is not asked again for it. Which master a kept return came from is remembered in
 * memory only: after a restart of the minion, the first refusal ends it, as with one master.
 */
public final class Returner implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Returner.class);
    private static final int MEMORY_TRIES = 3;

    private final ReturnRoutes routes;
    private final ReturnOutbox outbox;
    private final int retryMinSeconds;
    private final int retryMaxSeconds;
    private final ScheduledThreadPoolExecutor retries;
    private final AtomicBoolean flushScheduled = new AtomicBoolean();
    private final Object flushing = new Object();
    /** Kept returns (by outbox entry name) whose job came from a master this minion still has. */
    private final Map<String, Object> originOf = new ConcurrentHashMap<>();
    /** Masters that refused a kept return of another master's job: not asked again for it. */
    private final Map<String, Set<Object>> refusedBy = new ConcurrentHashMap<>();

    /** What became of one attempt to hand a return over. */
    private enum Outcome {
        TAKEN, REFUSED,
        /** No master answered. */
        KEPT,
        /** Another master refused it; its own master did not answer. */
        WAITING
    }
    private final ReturnSeal seal;

    /**
     * @param outbox where undelivered returns wait; null to keep them in memory for three tries only
     */
    public Returner(String minionId, MasterRequests channel, ReturnOutbox outbox, int retryMinSeconds, int retryMaxSeconds) {
        this(minionId, ReturnRoutes.single(channel), outbox, retryMinSeconds, retryMaxSeconds, ReturnSeal.AS_GIVEN);
    }

    /**
     * @param routes the masters returns may go to
     * @param outbox where undelivered returns wait; null to keep them in memory for three tries only
     * @param seal proves each return's sender when it is sent ({@link ReturnSeal}); {@link ReturnSeal#AS_GIVEN} sends
     *     loads as they are delivered
     */
    public Returner(String minionId, ReturnRoutes routes, ReturnOutbox outbox, int retryMinSeconds, int retryMaxSeconds,
            ReturnSeal seal) {
        this.routes = routes;
        this.seal = seal;
        this.outbox = outbox;
        this.retryMinSeconds = retryMinSeconds;
        this.retryMaxSeconds = Math.max(retryMinSeconds, retryMaxSeconds);
        this.retries = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "jsalt-return-" + minionId);
            t.setDaemon(true);
            return t;
        });
        retries.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        retries.setRemoveOnCancelPolicy(true);
    }

    /** True when this returner proves each return's sender itself: deliver returns unsigned. */
    public boolean sealsReturns() {
        return seal.seals();
    }

    /**
     * Sends one complete return for {@code jid} (unsigned when {@link #sealsReturns()}: it is sealed for the session
     * it goes out under), keeping it for later when the master does not answer.
     */
    public void deliver(Map<String, Object> load, String jid) {
        deliver(load, jid, null);
    }

    /**
     * As {@link #deliver(Map, String)}, for a job that came from {@code origin} (a {@link ReturnRoutes.Route#key()}):
     * that master is tried first, and only its refusal is final.
     */
    public void deliver(Map<String, Object> load, String jid, Object origin) {
        Set<Object> refused = ConcurrentHashMap.newKeySet();
        Outcome first = send(load, jid, origin, refused);
        if (first == Outcome.TAKEN || first == Outcome.REFUSED) {
            return;
        }
        if (outbox == null) {
            retryInMemory(load, jid, 1);
            return;
        }
        Optional<ReturnOutbox.Entry> kept = outbox.put(jid, load);
        if (kept.isPresent()) {
            if (origin != null && routes.isMaster(origin)) {
                originOf.put(kept.get().name(), origin);
                refusedBy.put(kept.get().name(), refused);
            }
            log.info("return of job {} kept in the outbox until a master answers", jid);
            flushLater();
        }
    }

    /** Sends what the outbox holds now, off the caller's thread; called after each sign-in. */
    public void flushSoon() {
        if (outbox != null && !retries.isShutdown()) {
            retries.execute(this::flush);
        }
    }

    private void flush() {
        synchronized (flushing) {
            boolean waiting = false;
            for (ReturnOutbox.Entry entry : outbox.pending()) {
                if (retries.isShutdown()) {
                    return;
                }
                Map<String, Object> load = outbox.read(entry).orElse(null);
                if (load == null) {
                    forget(entry.name());
                    continue;
                }
                Set<Object> refused = refusedBy.computeIfAbsent(entry.name(), n -> ConcurrentHashMap.newKeySet());
                Outcome outcome = send(load, entry.jid(), originOf.get(entry.name()), refused);
                if (outcome == Outcome.KEPT) {
                    flushLater(); // no master answers yet: the rest would most likely wait too
                    return;
                }
                if (outcome == Outcome.WAITING) {
                    waiting = true; // for its own master; the next ones may be taken by those here
                    continue;
                }
                outbox.remove(entry);
                forget(entry.name());
                if (outcome == Outcome.TAKEN) {
                    log.info("kept return of job {} delivered", entry.jid());
                }
            }
            if (waiting) {
                flushLater();
            }
        }
    }

    private void forget(String entryName) {
        originOf.remove(entryName);
        refusedBy.remove(entryName);
    }

    private void flushLater() {
        if (flushScheduled.compareAndSet(false, true) && !retries.isShutdown()) {
            retries.schedule(() -> {
                flushScheduled.set(false);
                flush();
            }, retryDelayMs(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Offers the return to the masters in turn, the job's own first; a master in {@code refused} already refused
     * it and is passed over (one that refuses another master's job is added).
     */
    private Outcome send(Map<String, Object> load, String jid, Object origin, Set<Object> refused) {
        boolean ownMaster = origin != null && routes.isMaster(origin);
        for (ReturnRoutes.Route route : routes.candidates(origin)) {
            if (refused.contains(route.key())) {
                continue;
            }
            Object answer;
            try {
                answer = sealedSend(route.channel(), load, jid);
            } catch (TransportException | NotSignedInException | CryptoException | WireException e) {
                // no answer, or none this minion could read even after signing in again: try another, or keep it
                log.debug("return of job {} not delivered to {}: {}", jid, route.key(), e.getMessage());
                continue;
            }
            if (!Boolean.FALSE.equals(answer)) {
                return Outcome.TAKEN;
            }
            if (!ownMaster || route.key().equals(origin)) {
                log.warn("the master refused the return of job {}", jid);
                return Outcome.REFUSED;
            }
            log.info("master {} refused the return of job {} of another master; keeping it for that one", route.key(), jid);
            refused.add(route.key());
        }
        return refused.isEmpty() ? Outcome.KEPT : Outcome.WAITING;
    }

    /**
     * Sends the load sealed for the session it goes out under; a MAC that master cannot check (it does not share
     * the master key that derived the secret) is followed by the signed load: nothing is lost to such a master.
     */
    private Object sealedSend(MasterRequests channel, Map<String, Object> load, String jid) {
        Session[] sentUnder = new Session[1];
        Object answer = channel.send(s -> {
            sentUnder[0] = s;
            return seal.forSession(s, load);
        });
        if (Boolean.FALSE.equals(answer)) {
            Optional<Map<String, Object>> signed = seal.signedInstead(sentUnder[0], load);
            if (signed.isPresent()) {
                log.info("the master refused the MACed return of job {}: sending it signed", jid);
                answer = channel.send(signed.get());
            }
        }
        return answer;
    }

    private void retryInMemory(Map<String, Object> load, String jid, int attempt) {
        if (attempt >= MEMORY_TRIES) {
            log.error("return of job {} not delivered after {} tries", jid, attempt);
            return;
        }
        long delayMs = retryDelayMs();
        log.info("return of job {} not delivered; retrying in {} ms", jid, delayMs);
        retries.schedule(() -> {
            Outcome outcome = send(load, jid, null, ConcurrentHashMap.newKeySet());
            if (outcome == Outcome.KEPT || outcome == Outcome.WAITING) {
                retryInMemory(load, jid, attempt + 1);
            }
        }, delayMs, TimeUnit.MILLISECONDS);
    }

    private long retryDelayMs() {
        return ThreadLocalRandom.current().nextLong(retryMinSeconds * 1000L, retryMaxSeconds * 1000L + 1);
    }

    @Override
    public void close() {
        io.jsalt.minion.jobs.ExecutorShutdown.gracefully(retries, java.time.Duration.ofSeconds(2), "return retries");
    }
}
