package io.jsalt.master.runner;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The recent runner calls by jid: who ran which function with which arguments. Runner calls are not kept in
 * the job cache (their return goes out on the event bus only), so this is what lets the master tell whether
 * an eauth user may see a {@code salt/run/<jid>/...} event: it is their own call, still within their rights.
 * The master keeps a second one for asynchronous wheel calls ({@code salt/wheel/<jid>/...}), whose function and
 * arguments (the wheel's keyword arguments as {@code kwarg}) are checked against the caller's wheel rights.
 * Bounded (the oldest calls are forgotten first) and in memory: after a restart, or past
 * {@link #CAPACITY} newer calls, a call's events are shown only to readers of the whole bus.
 */
public final class RunnerCalls {
    static final int CAPACITY = 10_000;

    /** One call: its user, the function ({@code jobs.list_jobs}), its positional and keyword arguments. */
    public record Call(String user, String fun, List<Object> arg, Map<String, Object> kwarg) {}

    private final Map<String, Call> calls = new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Call> eldest) {
            return size() > CAPACITY;
        }
    };

    public synchronized void record(String jid, Call call) {
        calls.put(jid, call);
    }

    public synchronized Optional<Call> find(String jid) {
        return Optional.ofNullable(calls.get(jid));
    }
}
