package io.jsalt.minion.returns;

import io.jsalt.crypto.CryptoException;
import io.jsalt.minion.auth.Session;
import io.jsalt.minion.channel.MasterChannel;
import io.jsalt.minion.channel.NotSignedInException;
import io.jsalt.transport.TransportException;
import io.jsalt.transport.codec.WireException;
import java.util.Map;
import java.util.Optional;
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
 */
public final class Returner implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Returner.class);
    private static final int MEMORY_TRIES = 3;

    private final MasterChannel channel;
    private final ReturnOutbox outbox;
    private final int retryMinSeconds;
    private final int retryMaxSeconds;
    private final ScheduledThreadPoolExecutor retries;
    private final AtomicBoolean flushScheduled = new AtomicBoolean();
    private final Object flushing = new Object();
    private final ReturnSeal seal;

    /**
     * @param outbox where undelivered returns wait; null to keep them in memory for three tries only
     */
    public Returner(String minionId, MasterChannel channel, ReturnOutbox outbox, int retryMinSeconds, int retryMaxSeconds) {
        this(minionId, channel, outbox, retryMinSeconds, retryMaxSeconds, ReturnSeal.AS_GIVEN);
    }

    /**
     * @param seal proves each return's sender when it is sent ({@link ReturnSeal}); {@link ReturnSeal#AS_GIVEN} sends
     *     loads as they are delivered
     */
    public Returner(String minionId, MasterChannel channel, ReturnOutbox outbox, int retryMinSeconds, int retryMaxSeconds,
            ReturnSeal seal) {
        this.seal = seal;
        this.channel = channel;
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
        if (send(load, jid)) {
            return;
        }
        if (outbox == null) {
            retryInMemory(load, jid, 1);
            return;
        }
        if (outbox.put(jid, load).isPresent()) {
            log.info("return of job {} kept in the outbox until the master answers", jid);
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
            for (ReturnOutbox.Entry entry : outbox.pending()) {
                if (retries.isShutdown()) {
                    return;
                }
                Map<String, Object> load = outbox.read(entry).orElse(null);
                if (load == null) {
                    continue;
                }
                if (!send(load, entry.jid())) {
                    flushLater(); // the master is still away: the rest would wait for it too
                    return;
                }
                outbox.remove(entry);
                log.info("kept return of job {} delivered", entry.jid());
            }
        }
    }

    private void flushLater() {
        if (flushScheduled.compareAndSet(false, true) && !retries.isShutdown()) {
            retries.schedule(() -> {
                flushScheduled.set(false);
                flush();
            }, retryDelayMs(), TimeUnit.MILLISECONDS);
        }
    }

    /** True when the master answered, whatever it answered. */
    private boolean send(Map<String, Object> load, String jid) {
        try {
            Session[] sentUnder = new Session[1];
            Object answer = channel.send(s -> {
                sentUnder[0] = s;
                return seal.forSession(s, load);
            });
            if (Boolean.FALSE.equals(answer)) {
                Optional<Map<String, Object>> signed = seal.signedInstead(sentUnder[0], load);
                if (signed.isPresent()) {
                    // the RSA path stays for a master that cannot check this session's MAC: nothing is lost to it
                    log.info("the master refused the MACed return of job {}: sending it signed", jid);
                    answer = channel.send(signed.get());
                }
            }
            if (Boolean.FALSE.equals(answer)) {
                log.warn("the master refused the return of job {}", jid);
            }
            return true;
        } catch (TransportException | NotSignedInException | CryptoException | WireException e) {
            // no answer, or none this minion could read even after signing in again: keep it for later
            log.debug("return of job {} not delivered: {}", jid, e.getMessage());
            return false;
        }
    }

    private void retryInMemory(Map<String, Object> load, String jid, int attempt) {
        if (attempt >= MEMORY_TRIES) {
            log.error("return of job {} not delivered after {} tries", jid, attempt);
            return;
        }
        long delayMs = retryDelayMs();
        log.info("return of job {} not delivered; retrying in {} ms", jid, delayMs);
        retries.schedule(() -> {
            if (!send(load, jid)) {
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
