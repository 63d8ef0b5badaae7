package io.jsalt.minion.supervisor;

import io.jsalt.transport.message.MinionEvent;
import io.jsalt.transport.message.RequestStamp;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
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
 * At most {@value #QUEUE} changes wait; past that the oldest go.
 */
public final class SupervisorEvents implements SupervisorListener, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SupervisorEvents.class);
    static final String TAG_PREFIX = "jsalt/supervisor/";
    private static final int QUEUE = 1000;
    /** The pseudo-state of a process no longer supervised, last segment of its tag. */
    public static final String REMOVED = "REMOVED";
    private static final String PROCESSES = "processes";

    private final String minionId;
    private final Supplier<byte[]> tokSource;
    /** Made on the first event only: an RSA signature per minion would slow a benchmark's thousands of starts. */
    private byte[] tok;
    private final Consumer<Map<String, Object>> channel;
    private final ThreadPoolExecutor sender;

    /**
     * @param tok     makes the minion's proof of its key, X9.31(minion key, "salt"); called once, when needed
     * @param channel sends one request load to the master; may throw when it cannot
     */
    public SupervisorEvents(String minionId, Supplier<byte[]> tok, Consumer<Map<String, Object>> channel) {
        this.minionId = minionId;
        this.tokSource = tok;
        this.channel = channel;
        this.sender = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(QUEUE), r -> {
            Thread t = new Thread(r, "jsalt-supervisor-events-" + minionId);
            t.setDaemon(true);
            return t;
        }, new ThreadPoolExecutor.DiscardOldestPolicy());
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
        if (!sender.isShutdown()) {
            sender.execute(() -> send(tag, data));
        }
    }

    private void send(String tag, Map<String, Object> data) {
        try {
            // stamped, so a jsalt master fires it once even if the request is sent again (RequestStamp)
            if (tok == null) {
                tok = tokSource.get(); // only this class's one sender thread reads or writes it
            }
            channel.accept(RequestStamp.stamp(new MinionEvent(minionId, tok, tag, data).toLoad(), System.currentTimeMillis()));
        } catch (RuntimeException e) {
            log.debug("{}: event {} not delivered: {}", minionId, tag, e.toString());
        }
    }

    @Override
    public void close() {
        sender.shutdown();
        try {
            if (!sender.awaitTermination(5, TimeUnit.SECONDS)) {
                sender.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            sender.shutdownNow();
        }
    }
}
