package io.jsalt.master.runner;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The recent runner calls by jid: who ran which function with which arguments. Runner calls are not kept in
 * the job cache (their return goes out on the event bus only), so this is what lets the master tell whether
 * an eauth user may see a {@code salt/run/<jid>/...} event: it is their own call, still within their rights.
 * The master keeps a second one for wheel calls ({@code salt/wheel/<jid>/...}, both jids of a call), whose function and
 * arguments (the wheel's keyword arguments as {@code kwarg}) are checked against the caller's wheel rights.
 * Bounded (the oldest calls are forgotten first) and in memory: after a restart, or past
 * {@link #CAPACITY} newer calls, a call's events are shown only to readers of the whole bus. Only calls the
 * runner accepted (a known function, arguments that bind) are recorded, and their arguments only up to
 * {@link #MAX_ARGS_BYTES} packed: a call with bigger arguments is recorded without them (its user then sees its
 * events only with an unconditional right to the function, as argument conditions cannot be checked), so the
 * table stays within about {@code CAPACITY x MAX_ARGS_BYTES} however big the calls are.
 */
public final class RunnerCalls {
    static final int CAPACITY = 10_000;
    static final int MAX_ARGS_BYTES = 1024;

    /**
     * One call: its user, the function ({@code jobs.list_jobs}), its positional and keyword arguments;
     * {@code arg} and {@code kwarg} are null when they were too big to keep.
     */
    public record Call(String user, String fun, List<Object> arg, Map<String, Object> kwarg) {
        /** The call, with its arguments when they pack into at most {@link #MAX_ARGS_BYTES}. */
        public static Call of(String user, String fun, List<Object> arg, Map<String, Object> kwarg) {
            boolean small = io.jsalt.transport.codec.SaltPack.pack(java.util.Arrays.asList(arg, kwarg)).length <= MAX_ARGS_BYTES;
            return small ? new Call(user, fun, arg, kwarg) : new Call(user, fun, null, null);
        }

        /** Whether the arguments were kept. */
        public boolean argsKept() {
            return arg != null;
        }
    }

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
