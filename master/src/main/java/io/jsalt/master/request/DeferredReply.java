package io.jsalt.master.request;

import java.util.function.Consumer;

/**
 * An {@link AesCommand}'s answer that may go out only once something has finished, maybe on another thread (a
 * return's: once its row has committed, so an acknowledged return is never lost). The dispatcher encrypts
 * {@code answer} at once, on the MWorker, then calls {@code start}; the reply goes out when {@code start}'s
 * {@link Outcome} hears {@link Outcome#succeeded()}, or the error reply on {@link Outcome#failed}. The MWorker
 * does not wait: it takes its next request.
 */
public record DeferredReply(Object answer, Consumer<Outcome> start) {
    /** Exactly one of the two, once, from any thread. */
    public interface Outcome {
        void succeeded();

        void failed(RuntimeException e);
    }
}
