package io.jsalt.cli.jsalt;

import io.jsalt.transport.event.EventFrame;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What {@code jsalt} needs from the master: publish, read its events, and three runners. The live one talks
 * to a running master; tests drive the waiting and batch logic with a fake on a fake clock.
 */
interface MasterLink {
    /** Publishes a job; the reply's jid and expected minions. */
    Published publish(JobSpec job);

    /** The next event on the master's bus, waiting at most {@code timeout}; empty when none came. */
    Optional<EventFrame> nextEvent(Duration timeout) throws IOException;

    /** Returns the master's job cache holds for {@code jid} (runner jobs.list_job); empty when it cannot say. */
    Map<String, Answer> storedReturns(String jid);

    /** The minions connected to the master now (runner manage.present); empty when it cannot say. */
    Optional<Set<String>> present();

    /** The master's resolution of a target (runner target.preview). */
    TargetPreview preview(Object tgt, String tgtType);
}
