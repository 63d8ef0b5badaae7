package io.jsalt.api.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.transport.event.EventFrame;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

/**
 * A stream's outlet without sockets: writes recorded, completed when the test says so (a client that reads, or
 * one that does not). Nothing an outlet is offered ever waits for its client.
 */
class StreamOutletTest {
    /** Records each write; a write stays under way until the test completes it. */
    private static final class Recorded extends StreamOutlet {
        final List<String> written = new ArrayList<>();
        Callback pending;
        Throwable finishedWith;
        boolean finished;
        int left;
        boolean cut;

        Recorded(int capacity) {
            super(capacity);
            joined(() -> left++);
        }

        @Override
        protected void writeOpening(Callback done) {
            write("opening", done);
        }

        @Override
        protected void writeEvent(FeedEvent event, Callback done) {
            write(event.tag(), done);
        }

        @Override
        protected void writeKeepAlive(Callback done) {
            write("keep-alive", done);
        }

        @Override
        protected void writeEnd(End why, Callback done) {
            write("end: " + why, done);
        }

        @Override
        protected void cutOff() {
            cut = true;
        }

        @Override
        protected void finished(Throwable failure) {
            finished = true;
            finishedWith = failure;
        }

        private void write(String what, Callback done) {
            assertThat(pending).as("one write at a time").isNull();
            written.add(what);
            pending = done;
        }

        /** The client took the write under way. */
        void read() {
            Callback done = pending;
            pending = null;
            done.succeeded();
        }

        void readAll() {
            while (pending != null) {
                read();
            }
        }
    }

    private static FeedEvent event(String tag) {
        return new FeedEvent(new EventFrame(tag, Map.of()));
    }

    @Test
    void nothingIsWrittenBeforeStartThenTheOpeningAndTheEventsInOrder() {
        Recorded outlet = new Recorded(8);
        outlet.offer(event("a"));
        outlet.offer(event("b"));
        assertThat(outlet.written).isEmpty();

        outlet.start();
        outlet.offer(event("c"));
        outlet.readAll();
        assertThat(outlet.written).containsExactly("opening", "a", "b", "c");
        assertThat(outlet.finished).isFalse();
    }

    @Test
    void aClientThatFallsCapacityEventsBehindIsCutOffAndTheOfferNeverWaits() {
        Recorded outlet = new Recorded(3);
        outlet.start();
        outlet.read(); // the opening went out; then the client stops reading
        outlet.offer(event("e0")); // under way
        for (int i = 1; i <= 3; i++) {
            outlet.offer(event("e" + i));
        }
        assertThat(outlet.waiting()).isEqualTo(3);
        assertThat(outlet.cut).isFalse();

        outlet.offer(event("e4")); // one too many: cut, at once, without waiting for the client
        assertThat(outlet.cut).isTrue();
        assertThat(outlet.left).isEqualTo(1);
        assertThat(outlet.waiting()).isZero();
        outlet.offer(event("e5")); // ignored from now on
        outlet.readAll();
        assertThat(outlet.written).containsExactly("opening", "e0", "end: TOO_SLOW");
        assertThat(outlet.finished).isTrue();
        assertThat(outlet.finishedWith).isNull();
        assertThat(outlet.left).isEqualTo(1);
    }

    @Test
    void aKeepAliveGoesOnlyToAStreamThatWasHandedNothingSinceTheLastRound() {
        Recorded outlet = new Recorded(8);
        outlet.start();
        outlet.read();
        outlet.quiet();
        outlet.read();
        outlet.offer(event("a"));
        outlet.read();
        outlet.quiet(); // "a" went out in this round: no keep-alive
        outlet.quiet(); // nothing since: a keep-alive
        outlet.readAll();
        assertThat(outlet.written).containsExactly("opening", "keep-alive", "a", "keep-alive");
    }

    @Test
    void anEndDropsWhatWaitsAndAFailedWriteFinishesTheStreamWithItsCause() {
        Recorded ended = new Recorded(8);
        ended.start();
        ended.read();
        ended.offer(event("a"));
        ended.offer(event("b"));
        ended.end(StreamOutlet.End.TOKEN_DEAD);
        ended.readAll();
        assertThat(ended.written).containsExactly("opening", "a", "end: TOKEN_DEAD");
        assertThat(ended.left).isEqualTo(1);

        Recorded failed = new Recorded(8);
        failed.start();
        IllegalStateException gone = new IllegalStateException("connection reset");
        Callback opening = failed.pending;
        failed.pending = null;
        opening.failed(gone);
        assertThat(failed.finished).isTrue();
        assertThat(failed.finishedWith).isSameAs(gone);
        assertThat(failed.left).isEqualTo(1);
        failed.offer(event("late"));
        assertThat(failed.written).containsExactly("opening");
    }
}
