package io.jsalt.master.supervision;

import io.jsalt.master.events.EventListener;
import io.jsalt.transport.event.EventFrame;
import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last known state of every supervised process on every minion, kept from the minions' own
 * {@code jsalt/supervisor/<id>/<process>/<STATE>} events on the master's bus: the fleet view. The request
 * handler has already checked that the minion proved its key and that the tag names that minion; this
 * table checks again that the tag's id is the event's {@code id}, so nothing else on the bus can write a row.
 * Kept in memory and saved to a {@link FleetStore}: a restarted master loads what it knew (each row with when it
 * was reported, and the runner says whether its minion is connected now), and each minion refreshes its rows
 * when it signs in.
 */
public final class FleetProcesses implements EventListener, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(FleetProcesses.class);
    public static final String TAG_PREFIX = "jsalt/supervisor/";
    private static final Pattern TAG = Pattern.compile(Pattern.quote(TAG_PREFIX)
            + "([^/]+)/([A-Za-z0-9_@][A-Za-z0-9_.@-]{0,127})/(STOPPED|STARTING|RUNNING|BACKOFF|STOPPING|EXITED|FATAL|UNKNOWN|REMOVED)");
    /** A process no longer supervised: its program was removed. Its row goes. */
    private static final String REMOVED = "REMOVED";
    /** {@code jsalt/supervisor/<minion>/processes}: every process the minion supervises, after each sign-in. */
    private static final Pattern PROCESSES = Pattern.compile(Pattern.quote(TAG_PREFIX) + "([^/]+)/processes");
    /** The key of the master an event was relayed from (PgEventBridge's {@code master_id}). */
    private static final String RELAYED_FROM = io.jsalt.master.jobs.pg.PgEventBridge.RELAYED_FROM;
    /** A minion reporting more processes than this is misbehaving: its further processes are not recorded. */
    static final int MAX_PROCESSES_PER_MINION = 10_000;

    /**
     * One row of the table.
     *
     * @param since    when the process entered its state, as the minion reported (epoch seconds)
     * @param reported when the master received the report
     * @param via      the master whose minion reported it, when not this one (an event relayed by the shared bus,
     *                 a row of the shared PostgreSQL table); null: this master's own minion
     */
    public record Row(String minion, String process, String group, String state, long pid, Object exitstatus,
            double since, int restarts, String description, Instant reported, String via) {

        Map<String, Object> toMap(Instant now) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("group", group);
            m.put("state", state);
            m.put("pid", pid);
            m.put("exitstatus", exitstatus);
            m.put("since", since);
            m.put("restarts", restarts);
            m.put("description", description);
            m.put("reported_seconds_ago", Math.max(0, now.getEpochSecond() - reported.getEpochSecond()));
            m.put("via", via);
            return m;
        }
    }

    private final Map<String, Map<String, Row>> rows = new ConcurrentHashMap<>();
    private final Clock clock;
    private final FleetStore store;

    /** A table in memory only. */
    public FleetProcesses(Clock clock) {
        this(clock, FleetStore.NONE);
    }

    /** A table saved to {@code store}, starting with what the store holds. */
    public FleetProcesses(Clock clock, FleetStore store) {
        this.clock = clock;
        this.store = store;
        for (Row row : store.load()) {
            if (row.via() == null) { // another master's rows are read from a shared store at each query, never kept
                rows.computeIfAbsent(row.minion(), k -> new ConcurrentHashMap<>()).put(row.process(), row);
            }
        }
    }

    @Override
    public void onEvent(EventFrame event) {
        if (!event.tag().startsWith(TAG_PREFIX)) {
            return;
        }
        Matcher m = TAG.matcher(event.tag());
        Map<String, Object> data = event.data();
        Matcher list = PROCESSES.matcher(event.tag());
        if (list.matches() && list.group(1).equals(data.get("id"))) {
            keepOnly(list.group(1), data.get("processes"));
            return;
        }
        if (!m.matches() || !m.group(1).equals(data.get("id"))) {
            log.debug("supervisor event {} ignored: not jsalt/supervisor/<its own id>/<process>/<STATE>", event.tag());
            return;
        }
        String minion = m.group(1);
        String process = m.group(2);
        if (m.group(3).equals(REMOVED)) {
            Map<String, Row> ofMinion = rows.get(minion);
            if (ofMinion != null && ofMinion.remove(process) != null) {
                store.delete(minion, process);
            }
            return;
        }
        Map<String, Row> ofMinion = rows.computeIfAbsent(minion, k -> new ConcurrentHashMap<>());
        if (!ofMinion.containsKey(process) && ofMinion.size() >= MAX_PROCESSES_PER_MINION) {
            log.warn("{} reports more than {} supervised processes: {} not recorded", minion, MAX_PROCESSES_PER_MINION, process);
            return;
        }
        Object exitstatus = data.get("exitstatus") instanceof Number n ? (Object) n.longValue() : null;
        Row row = new Row(minion, process, text(data.get("group"), process), m.group(3),
                number(data.get("pid")).longValue(), exitstatus, number(data.get("since")).doubleValue(),
                number(data.get("restarts")).intValue(), text(data.get("description"), ""), clock.instant(),
                data.get(RELAYED_FROM) instanceof String master ? master : null);
        ofMinion.put(process, row);
        store.save(row);
    }

    /** Drops the rows of {@code minion} whose process is not in {@code names} (a list of process names). */
    private void keepOnly(String minion, Object names) {
        if (!(names instanceof List<?> list)) {
            log.debug("{}: a list of processes without a list ignored", minion);
            return;
        }
        Set<String> present = new HashSet<>();
        list.forEach(n -> present.add(String.valueOf(n)));
        Map<String, Row> ofMinion = rows.get(minion);
        if (ofMinion == null) {
            return;
        }
        for (String process : List.copyOf(ofMinion.keySet())) {
            if (!present.contains(process) && ofMinion.remove(process) != null) {
                log.debug("{}: {} is no longer supervised: its row is dropped", minion, process);
                store.delete(minion, process);
            }
        }
    }

    /** Forgets a minion (its key was deleted). */
    public void forget(String minion) {
        rows.remove(minion);
        store.forget(minion);
    }

    @Override
    public void close() {
        store.close();
    }

    /**
     * {@code {minion: {process: {group, state, pid, exitstatus, since, restarts, description,
     * reported_seconds_ago}}}}, sorted, limited to the given minions (all when null), process and state.
     */
    public Map<String, Map<String, Object>> status(Set<String> minions, String process, String state) {
        Instant now = clock.instant();
        Map<String, Map<String, Object>> out = new TreeMap<>();
        new TreeMap<>(current()).forEach((minion, processes) -> {
            if (minions != null && !minions.contains(minion)) {
                return;
            }
            Map<String, Object> shown = new TreeMap<>();
            processes.forEach((name, row) -> {
                if ((process == null || name.equals(process) || row.group().equals(process))
                        && (state == null || row.state().equalsIgnoreCase(state))) {
                    shown.put(name, row.toMap(now));
                }
            });
            if (!shown.isEmpty()) {
                out.put(minion, shown);
            }
        });
        return out;
    }

    /**
     * The rows to show: this master's own, or with a {@linkplain FleetStore#shared shared} store every master's
     * rows as the store has them now, each overlaid by this master's row when that is newer (its write may still be
     * queued).
     */
    private Map<String, Map<String, Row>> current() {
        if (!store.shared()) {
            return rows;
        }
        Map<String, Map<String, Row>> merged = new java.util.HashMap<>();
        for (Row row : store.load()) {
            merged.computeIfAbsent(row.minion(), k -> new java.util.HashMap<>()).put(row.process(), row);
        }
        rows.forEach((minion, processes) -> processes.forEach((name, row) -> {
            Map<String, Row> ofMinion = merged.computeIfAbsent(minion, k -> new java.util.HashMap<>());
            Row stored = ofMinion.get(name);
            if (stored == null || !stored.reported().isAfter(row.reported())) {
                ofMinion.put(name, row);
            }
        }));
        return merged;
    }

    private static Number number(Object value) {
        return value instanceof Number n ? n : 0;
    }

    private static String text(Object value, String dflt) {
        return value instanceof String s ? s : dflt;
    }
}
