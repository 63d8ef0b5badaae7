package io.jsalt.cli.jsalt;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ExitCode;
import io.jsalt.cli.MasterConnection;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.event.EventFrame;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;

/**
 * {@link MasterLink} for an eauth user ({@code jsalt -a}): publishes carry the user's credentials and the
 * master checks their rights; the master's event socket is the master user's only, so returns are read from
 * the job cache ({@code job_returns}, the user's own jobs) and handed out as the return events they stand
 * for. {@code saltutil.find_job} is published only where the user may run it; where not, the silent minions
 * are reported as not having returned.
 */
final class EauthMasterLink implements MasterLink {
    /**
     * How often the job cache is asked for new returns while waiting. A fixed pause is right here: an eauth user
     * cannot open the master's event socket, so there is no event to wait on, only the master to ask again; 250 ms
     * keeps a return's delay small and costs the master four small requests a second per waiting CLI.
     */
    private static final Duration POLL = Duration.ofMillis(250);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

    private final MasterConnection master;
    private final LiveMasterLink calls;
    private final Set<String> jids = new HashSet<>();
    private final Set<String> seen = new HashSet<>();
    private final Queue<EventFrame> pending = new ArrayDeque<>();

    EauthMasterLink(MasterConnection master) {
        this.master = master;
        this.calls = new LiveMasterLink(master, null, "");
    }

    @Override
    public Published publish(JobSpec job) {
        Published p;
        try {
            p = calls.publish(job);
        } catch (CliException e) {
            if (JobWaiter.FIND_JOB.equals(job.fun()) && e.exitCode() == ExitCode.NO_PERMISSION) {
                return new Published("", List.of(), List.of(), List.of()); // cannot ask: nobody is said to be running it
            }
            throw e;
        }
        jids.add(p.jid());
        return p;
    }

    @Override
    public Optional<EventFrame> nextEvent(Duration timeout) throws java.io.IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (pending.isEmpty()) {
            for (String jid : jids) {
                storedReturns(jid).forEach((id, answer) -> {
                    if (seen.add(jid + "/" + id)) {
                        Map<String, Object> data = new LinkedHashMap<>();
                        data.put("id", id);
                        data.put("jid", jid);
                        data.put("return", answer.ret());
                        data.put("retcode", answer.retcode());
                        data.put("verified", answer.verified());
                        pending.add(new EventFrame("salt/job/" + jid + "/ret/" + id, data));
                    }
                });
            }
            long left = deadline - System.nanoTime();
            if (!pending.isEmpty() || left <= 0) {
                break;
            }
            try {
                Thread.sleep(Math.min(POLL.toMillis(), Math.max(1, left / 1_000_000)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while waiting for returns");
            }
        }
        return Optional.ofNullable(pending.poll());
    }

    @Override
    public Map<String, Answer> storedReturns(String jid) {
        Map<String, Answer> stored = new LinkedHashMap<>();
        Map<String, Object> reply = master.call(Map.of("cmd", "job_returns", "jid", jid), CALL_TIMEOUT);
        Wire.map(reply, "returns").forEach((id, entry) -> {
            if (entry instanceof Map<?, ?> m) {
                stored.put(id, Answer.of(m));
            }
        });
        return stored;
    }

    /** The connected minions need runner rights an eauth user may lack: the waiter then asks each minion instead. */
    @Override
    public Optional<Set<String>> present() {
        return Optional.empty();
    }

    @Override
    public TargetPreview preview(Object tgt, String tgtType) {
        return calls.preview(tgt, tgtType);
    }
}
