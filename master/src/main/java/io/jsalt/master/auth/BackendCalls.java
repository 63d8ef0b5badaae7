package io.jsalt.master.auth;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Where the slow eauth backends ({@code ldap}, {@code pam}) are asked: a few threads of their own, not the
 * MWorkers'. A hung directory or a PAM stack sleeping in {@code pam_faildelay} then holds one of these
 * {@link #THREADS} threads (each LDAP connection gives up by itself after 5 s), and an MWorker waits at most
 * its timeout for the answer: past it, or when {@link #THREADS} calls are running and {@link #QUEUE} waiting,
 * the request gets a clear refusal instead of stalling the worker pool. The threads are daemons and end
 * after a while without work, so an {@link Eauth} needs no closing.
 */
final class BackendCalls {
    static final int THREADS = 2;
    static final int QUEUE = 2;

    private final ThreadPoolExecutor pool = new ThreadPoolExecutor(THREADS, THREADS, 30, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(QUEUE), r -> {
                Thread t = new Thread(r, "eauth-backend");
                t.setDaemon(true);
                return t;
            });

    BackendCalls() {
        pool.allowCoreThreadTimeOut(true);
    }

    /** Starts {@code work} on a backend thread; a failed future when all threads and queue places are taken. */
    <T> CompletableFuture<T> start(Callable<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            pool.execute(() -> {
                try {
                    result.complete(work.call());
                } catch (Exception | Error e) {
                    result.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new EauthException(busy()));
        }
        return result;
    }

    /** Runs {@code work} on a backend thread and waits at most {@code timeout} for it; a refusal past it. */
    <T> T call(String what, Callable<T> work, Duration timeout) throws EauthException {
        Future<T> future = start(work);
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new EauthException(what + " did not answer within " + timeout.toMillis() / 1000.0 + " s: try again later");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof EauthException refused) {
                throw refused;
            }
            throw new EauthException(what + " failed: " + e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EauthException(what + " was interrupted");
        }
    }

    static String busy() {
        return "the eauth backends are busy (" + THREADS + " checks running, " + QUEUE + " waiting): try again later";
    }
}
