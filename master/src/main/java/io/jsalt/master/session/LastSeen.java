package io.jsalt.master.session;

import io.jsalt.master.events.EventListener;
import io.jsalt.transport.event.EventFrame;
import io.jsalt.transport.message.MinionId;
import java.time.Clock;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When the master last heard from each minion, read off its bus: a job's return
 * ({@code salt/job/<jid>/ret/<id>}), a start announcement ({@code salt/minion/<id>/start}, {@code minion_start})
 * and a supervisor report ({@code jsalt/supervisor/<id>/...}). Only events that a minion must prove its id for
 * count: the master fires those tags for a minion only after checking its key (a minion may not use another's
 * {@code salt/minion/}, {@code jsalt/supervisor/} or any {@code salt/job/} tag), so nobody can make another
 * minion look alive. A sign-in alone ({@code salt/auth}) does not count: it can be asked with a public key
 * only. In memory: after a master restart a minion is seen again at its next sign-in (its start event).
 */
public final class LastSeen implements EventListener {
    private static final String JOB_PREFIX = "salt/job/";
    private static final String RET = "/ret/";
    private static final Pattern START = Pattern.compile("salt/minion/([^/]+)/start");
    private static final Pattern SUPERVISOR = Pattern.compile("jsalt/supervisor/([^/]+)/.*");

    private final Clock clock;
    private final Map<String, Double> seen = new ConcurrentHashMap<>();

    public LastSeen(Clock clock) {
        this.clock = clock;
    }

    @Override
    public void onEvent(EventFrame event) {
        String id = minionOf(event);
        if (id != null && MinionId.isValid(id)) {
            seen.put(id, clock.millis() / 1000.0);
        }
    }

    /** The minion an event proves alive, or null. */
    private static String minionOf(EventFrame event) {
        String tag = event.tag();
        if (tag.equals("minion_start")) {
            return event.data().get("id") instanceof String id ? id : null;
        }
        if (tag.startsWith(JOB_PREFIX)) {
            return returnerOf(tag); // every return passes here: no regular expression for it
        }
        for (Pattern p : new Pattern[] {START, SUPERVISOR}) {
            Matcher m = p.matcher(tag);
            if (m.matches()) {
                return m.group(1);
            }
        }
        return null;
    }

    /**
     * The id of a return's tag, {@code salt/job/<digits>/ret/<id>} with no {@code /} in the id, or null: what
     * {@code salt/job/[0-9]+/ret/([^/]+)} matches and captures, read without a regular expression.
     */
    static String returnerOf(String tag) {
        int i = JOB_PREFIX.length();
        int digits = i;
        while (i < tag.length() && tag.charAt(i) >= '0' && tag.charAt(i) <= '9') {
            i++;
        }
        if (i == digits || !tag.startsWith(RET, i)) {
            return null;
        }
        int id = i + RET.length();
        return id < tag.length() && tag.indexOf('/', id) < 0 ? tag.substring(id) : null;
    }

    /** {@code {id: epoch seconds}} of every minion heard from since the master started, sorted by id. */
    public Map<String, Double> all() {
        return new TreeMap<>(seen);
    }

    /** The key of {@code id} was deleted or rejected: what was seen of it is no longer about an accepted minion. */
    public void forget(String id) {
        seen.remove(id);
    }
}
