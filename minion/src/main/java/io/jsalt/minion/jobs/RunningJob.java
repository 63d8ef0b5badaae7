package io.jsalt.minion.jobs;

import io.jsalt.modules.api.JobControl;
import io.jsalt.transport.message.PublishLoad;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * One job while it runs: its publication, the thread running it, and the child processes its function
 * started. Ending it early (kill, term, timeout) interrupts that thread, which blocking built-ins answer by
 * ending their children, and signals the recorded children and their descendants directly, so a child that
 * a function forgot to watch dies too.
 */
public final class RunningJob implements JobControl {
    /** Why a job ended before its function returned. */
    public enum Ending { KILLED, TERMINATED, TIMED_OUT }

    private final PublishLoad load;
    private final Thread thread;
    private final Instant startTime = Instant.now();
    private final List<ProcessHandle> children = new CopyOnWriteArrayList<>();
    private final Consumer<RunningJob> onChange;
    private boolean finished;
    private volatile Ending ending;

    RunningJob(PublishLoad load, Thread thread, Consumer<RunningJob> onChange) {
        this.load = load;
        this.thread = thread;
        this.onChange = onChange;
    }

    @Override
    public String jid() {
        return load.jid();
    }

    public PublishLoad load() {
        return load;
    }

    @Override
    public void childStarted(ProcessHandle child) {
        children.add(child);
        synchronized (this) {
            if (finished) {
                return;
            }
            if (ending != null) {
                end(child, ending == Ending.TERMINATED);
                return;
            }
        }
        onChange.accept(this);
    }

    /** Why the job was ended early; null when it was not. */
    public Ending ending() {
        return ending;
    }

    /** Salt's proc data: the publication with the minion's pid, plus the job's child_pids and start time. */
    public Map<String, Object> procData() {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("jid", load.jid());
        data.put("fun", load.fun());
        data.put("arg", load.arg());
        data.put("tgt", load.tgt());
        data.put("tgt_type", load.tgtType());
        data.put("user", load.user());
        data.put("ret", load.ret());
        data.put("pid", ProcessHandle.current().pid());
        List<Object> pids = new ArrayList<>();
        children.forEach(c -> pids.add(c.pid()));
        data.put("child_pids", pids); // Salt's saltutil.signal_job reads this key
        data.put("start_time", startTime.toString());
        return data;
    }

    /** The recorded children that still run. */
    public List<ProcessHandle> liveChildren() {
        return children.stream().filter(ProcessHandle::isAlive).toList();
    }

    /**
     * Ends the job: SIGTERM ({@code gently}) or SIGKILL to its children and their descendants, and an interrupt
     * to its thread. False when the job had already finished.
     */
    public synchronized boolean end(Ending why, boolean gently) {
        if (finished) {
            return false;
        }
        if (ending == null) {
            ending = why;
        }
        children.forEach(child -> end(child, gently));
        thread.interrupt();
        return true;
    }

    /** Marks the job finished on its own thread, and clears an interrupt that came too late to matter. */
    synchronized void finish() {
        finished = true;
        if (Thread.currentThread() == thread) {
            Thread.interrupted();
        }
    }

    private static void end(ProcessHandle process, boolean gently) {
        // descendants first: once the parent dies they are re-parented and harder to find
        process.descendants().forEach(p -> destroy(p, gently));
        destroy(process, gently);
    }

    private static void destroy(ProcessHandle process, boolean gently) {
        if (gently) {
            process.destroy();
        } else {
            process.destroyForcibly();
        }
    }
}
