package io.jsalt.master.request;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** What a command's result comes to as the dispatcher would send it: a {@link DeferredReply} is run and waited for. */
final class Answers {
    private Answers() {}

    /** The answer, once a deferred one's work has succeeded; its failure is thrown. */
    static Object answer(Object result) {
        if (!(result instanceof DeferredReply d)) {
            return result;
        }
        CompletableFuture<Object> out = new CompletableFuture<>();
        d.start().accept(new DeferredReply.Outcome() {
            @Override
            public void succeeded() {
                out.complete(d.answer());
            }

            @Override
            public void failed(RuntimeException e) {
                out.completeExceptionally(e);
            }
        });
        try {
            return out.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw (RuntimeException) e.getCause();
        } catch (InterruptedException | TimeoutException e) {
            throw new IllegalStateException("a deferred reply was not answered", e);
        }
    }
}
