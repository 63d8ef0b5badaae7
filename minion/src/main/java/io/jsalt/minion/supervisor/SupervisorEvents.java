package io.jsalt.minion.supervisor;

import io.jsalt.transport.message.MinionEvent;
import io.jsalt.transport.message.RequestStamp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the master of every state change, as an event on its bus:
 * {@code jsalt/supervisor/<minion>/<process>/<STATE>} with Supervisor's fields (pid, exitstatus, since,
 * restarts, ...), over the minion's authenticated request channel like its start event. The master fires
 * it only if the tag names the minion that proved its key ({@code MinionEventHandler}).
 *
 * <p>Sending talks to the network, so it runs on a thread of its own, never the supervisor's; when the
 * master does not answer, the change is dropped (the next sign-in sends every process's current state again).
 * At most {@value #QUEUE} changes wait; past that the oldest go. Changes that wait together go in one request
 * (the {@code events} list of a {@code _minion_event} load, which Salt's master takes too): a restart's EXITED,
 * STARTING and RUNNING, or a sign-in's whole snapshot, cost one round trip instead of one each.
 */
public final class SupervisorEvents implements SupervisorListener, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SupervisorEvents.class);
    static final String TAG_PREFIX = "jsalt/supervisor/";
    private static final int QUEUE = 1000;
    /** At most this many changes in one request. */
    private static final int BATCH = 100;
    /** The pseudo-state of a process no longer supervised, last segment of its tag. */
    public static final String REMOVED = "REMOVED";
    private static final String PROCESSES = "processes";

    private final String minionId;
    private final Supplier<byte[]> tokSource;
    /** Made on the first event only: an RSA signature per minion would slow a benchmark's thousands of starts. */
    private byte[] tok;
    private final Consumer<Map<String, Object>> channel;
    private final BlockingQueue<Map<String, Object>> queue = new ArrayBlockingQueue<>(QUEUE);
    /** Queued by close(), after everything else: the sender sends what came before, then ends. */
    private static final Map<String, Object> END = new LinkedHashMap<>();
    /** Started with the first change: a minion that supervises nothing has no thread (a benchmark runs thousands). */
    private Thread sender;
    private volatile boolean closed;

    /**
     * @param tok     makes the minion's proof of its key, X9.31(minion key, "salt"); called once, when needed
     * @param channel sends one request load to the master; may throw when it cannot
     */
    public SupervisorEvents(String minionId, Supplier<byte[]> tok, Consumer<Map<String, Object>> channel) {
        this.minionId = minionId;
        this.tokSource = tok;
        this.channel = channel;
    }

    /** The tag of a state change of {@code process} on {@code minionId}. */
    public static String tag(String minionId, String process, ProcessState state) {
        return TAG_PREFIX + minionId + "/" + process + "/" + state.name();
    }

    /** The tag of the list of every process the minion supervises, sent after each sign-in. */
    public static String processesTag(String minionId) {
        return TAG_PREFIX + minionId + "/" + PROCESSES;
    }

    @Override
    public void accept(ProcessSnapshot snapshot) {
        queue(tag(minionId, snapshot.name(), snapshot.state()), snapshot.eventData());
    }

    /** {@code jsalt/supervisor/<minion>/<process>/REMOVED}: the master drops the process's row. */
    @Override
    public void removed(String name, String group) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("name", name);
        data.put("group", group);
        data.put("state", REMOVED);
        queue(TAG_PREFIX + minionId + "/" + name + "/" + REMOVED, data);
    }

    /**
     * {@code jsalt/supervisor/<minion>/processes} with {@code {"processes": [names]}}: every process supervised
     * now; the master drops the rows of any other (programs removed while the master did not hear it, or while no
     * minion ran). Queued behind the state changes already waiting, so it follows the sign-in's snapshot.
     */
    public void present(List<String> names) {
        queue(processesTag(minionId), Map.of("processes", List.copyOf(names)));
    }

    private void queue(String tag, Map<String, Object> data) {
        if (closed) {
            return;
        }
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("tag", tag);
        event.put("data", data);
        synchronized (queue) {
            if (closed) {
                return;
            }
            if (sender == null) {
                sender = new Thread(this::sendAll, "jsalt-supervisor-events-" + minionId);
                sender.setDaemon(true);
                sender.start();
            }
            while (!queue.offer(event)) {
                queue.poll(); // full: the oldest change goes (the next sign-in reports every process again)
            }
        }
    }

    /** The sender thread: waits for a change, takes every other one waiting with it, sends them in one request. */
    private void sendAll() {
        while (true) {
            List<Map<String, Object>> batch = new ArrayList<>();
            try {
                batch.add(queue.take());
            } catch (InterruptedException e) {
                return; // closing did not wait any longer
            }
            queue.drainTo(batch, BATCH - 1);
            int end = -1;
            for (int i = 0; i < batch.size() && end < 0; i++) {
                end = batch.get(i) == END ? i : -1; // by identity: END is no change
            }
            if (end >= 0) {
                if (end > 0) {
                    send(batch.subList(0, end));
                }
                return;
            }
            send(batch);
        }
    }

    private void send(List<Map<String, Object>> batch) {
        try {
            // stamped, so a jsalt master fires it once even if the request is sent again (RequestStamp)
            if (tok == null) {
                tok = tokSource.get(); // only the sender thread reads or writes it
            }
            Map<String, Object> first = batch.get(0);
            Map<String, Object> load = new MinionEvent(minionId, tok, (String) first.get("tag"), first.get("data")).toLoad();
            if (batch.size() > 1) {
                load.remove("tag");
                load.remove("data");
                load.put("events", batch);
            }
            channel.accept(RequestStamp.stamp(load, System.currentTimeMillis()));
        } catch (RuntimeException e) {
            log.debug("{}: {} events not delivered (first {}): {}", minionId, batch.size(), batch.get(0).get("tag"), e.toString());
        }
    }

    /** Sends what is queued (at most 5 s more), then ends the sender. */
    @Override
    public void close() {
        Thread running;
        synchronized (queue) {
            closed = true;
            running = sender;
            if (running != null && !queue.offer(END)) {
                running.interrupt(); // a full queue at close: what waits is dropped
            }
        }
        if (running == null) {
            return;
        }
        try {
            running.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        running.interrupt();
    }
}
