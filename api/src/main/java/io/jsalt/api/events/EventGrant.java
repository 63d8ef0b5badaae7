package io.jsalt.api.events;

import io.jsalt.api.ApiException;
import io.jsalt.api.lowstate.MasterClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a token's event streams ({@code GET /events}, {@code GET /ws}) may show, as the master decides it
 * ({@code event_access}): this class only asks and remembers. A user who reads everything ({@code @events}, or {@code eauth_events: all}) gets
 * every event; otherwise the events of their own jobs ({@code <jid>}, {@code salt/job/<jid>/...}, {@code salt/run/<jid>/...},
 * {@code salt/wheel/<jid>/...}),
 * asked once per job, and nothing else. {@link #refresh} asks again from scratch (and finds a dead token):
 * rights taken away end in the streams within one refresh. Used by one thread at a time: the token's
 * {@link SharedFeed} reader once the feed runs.
 */
public final class EventGrant {
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);
    private static final Pattern JOB_TAG = Pattern.compile("(salt/(?:job|run|wheel)/\\d{20})(?:/.*)?");
    private static final Pattern BARE_JID = Pattern.compile("\\d{20}");
    /** Jobs remembered per stream; past that the oldest answer is asked again. */
    private static final int REMEMBERED = 1024;

    private final MasterClient master;
    private final String token;
    private final Map<String, Boolean> jobs = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > REMEMBERED;
        }
    };
    private boolean all;

    public EventGrant(MasterClient master, String token) {
        this.master = master;
        this.token = token;
    }

    /** Asks the master again what this token may read; false when the token is no longer live. */
    public boolean refresh() {
        Map<String, Object> answer = ask(null);
        if (answer == null) {
            return false;
        }
        all = Boolean.TRUE.equals(answer.get("all"));
        jobs.clear();
        return true;
    }

    /** The token whose rights these are: the key its streams share one subscription by. */
    public String token() {
        return token;
    }

    boolean mayRead(String tag) {
        if (all) {
            return true;
        }
        Matcher m = JOB_TAG.matcher(tag);
        boolean bareJid = BARE_JID.matcher(tag).matches(); // a publish's {"minions"} announcement, as Salt's master fires it
        if (!m.matches() && !bareJid) {
            return false;
        }
        String job = bareJid ? "salt/job/" + tag : m.group(1);
        Boolean known = jobs.get(job);
        if (known == null) {
            Map<String, Object> answer = ask(tag);
            known = answer != null && Boolean.TRUE.equals(answer.get("readable"));
            jobs.put(job, known);
        }
        return known;
    }

    /** The master's answer, or null when it refuses the token. */
    private Map<String, Object> ask(String tag) {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "event_access");
        load.put("token", token);
        if (tag != null) {
            load.put("tag", tag);
        }
        try {
            return master.callClear(load, CALL_TIMEOUT);
        } catch (ApiException e) {
            if (e.status() == 401) {
                return null;
            }
            throw e;
        }
    }
}
