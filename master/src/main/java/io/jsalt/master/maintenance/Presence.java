package io.jsalt.master.maintenance;

import io.jsalt.config.MasterConfig;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.MinionKeys;
import io.jsalt.transport.message.Topics;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import io.jsalt.master.session.SignIns;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Salt's presence events, one round per maintenance round while {@code presence_events} is on. A minion is
 * present when its key is accepted, it signed in to this master process and was not seen gone since
 * (authenticated activity: see {@link SignIns}) and a peer of the publish socket subscribes to its own topic
 * ({@link Topics#isSubscribedBy}): jsalt minions always do, salt-minions do under {@code zmq_filtering}, and a
 * salt-minion without it subscribes to everything and is never seen here. Each round fires
 * {@code salt/presence/change} {@code {"new": [...], "lost": [...]}} when the set changed since the last
 * round, then {@code salt/presence/present} {@code {"present": [...]}}, as Salt's Maintenance does.
 * Called from the maintenance thread only.
 */
public final class Presence implements Consumer<MasterConfig> {
    private static final Logger log = LoggerFactory.getLogger(Presence.class);

    private final MinionKeys keys;
    private final Supplier<Set<String>> subscribedTopics;
    private final SignIns signIns;
    private final EventBus events;
    /** The minions present at the last round; empty while presence_events is off, as at Salt's start. */
    private Set<String> last = Set.of();

    /**
     * @param subscribedTopics the publish socket's topics with a subscriber now (ISO-8859-1 strings)
     * @param signIns          which minions signed in to this master process and were not seen gone since: the
     *                         publish port takes anyone's subscription, so a subscribed topic alone is no proof
     */
    public Presence(MinionKeys keys, Supplier<Set<String>> subscribedTopics, SignIns signIns, EventBus events) {
        this.signIns = signIns;
        this.keys = keys;
        this.subscribedTopics = subscribedTopics;
        this.events = events;
    }

    /** One round under the configuration read now. */
    @Override
    public void accept(MasterConfig config) {
        if (!config.presenceEvents()) {
            last = Set.of();
            return;
        }
        try {
            round();
        } catch (RuntimeException e) {
            // a key folder that cannot be listed this round must not stop the rest of maintenance
            log.warn("presence round skipped: {}", e.toString());
        }
    }

    /** The minions present on this master now: accepted, signed in and not seen gone since, subscribed to their topic. */
    public Set<String> presentNow() {
        Set<String> topics = subscribedTopics.get();
        Set<String> present = new TreeSet<>();
        for (String id : keys.list(KeyState.ACCEPTED)) {
            if (signIns.mayBePresent(id) && Topics.isSubscribedBy(topics, id)) {
                present.add(id);
            }
        }
        return present;
    }

    private void round() {
        Set<String> present = presentNow();
        List<String> gained = present.stream().filter(id -> !last.contains(id)).toList();
        List<String> lost = last.stream().filter(id -> !present.contains(id)).sorted().toList();
        lost.forEach(signIns::seenGone);
        if (!gained.isEmpty() || !lost.isEmpty()) {
            log.info("presence changed: {} new, {} lost", gained.size(), lost.size());
            events.fire("salt/presence/change", Map.of("new", gained, "lost", lost));
        }
        events.fire("salt/presence/present", Map.of("present", List.copyOf(present)));
        last = Set.copyOf(present);
    }
}
