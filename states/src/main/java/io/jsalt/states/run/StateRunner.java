package io.jsalt.states.run;

import io.jsalt.states.StatesException;
import io.jsalt.states.compile.ExecutionPlan;
import io.jsalt.states.compile.Requisite;
import io.jsalt.states.compile.RequisiteKind;
import io.jsalt.states.compile.StateChunk;
import io.jsalt.states.compile.StateCompileException;
import io.jsalt.states.files.StateFiles;
import io.jsalt.states.render.FunctionCaller;
import io.jsalt.states.render.JinjaRenderer;
import io.jsalt.states.render.RenderContext;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an {@link ExecutionPlan} chunk by chunk and builds Salt's state return: one entry per chunk under its
 * {@code <state>_|-<id>_|-<name>_|-<fun>} key with {@code result}, {@code changes}, {@code comment}, {@code name},
 * {@code start_time}, {@code duration}, {@code __run_num__}, {@code __sls__} and {@code __id__}.
 */
public final class StateRunner {
    private static final Logger log = LoggerFactory.getLogger(StateRunner.class);
    private static final DateTimeFormatter START_TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS");
    private static final String FAILHARD = "failhard";

    private final StateFunctions functions;
    private final FunctionCaller salt;
    private final StateFiles files;
    private final JinjaRenderer jinja;

    public StateRunner(StateFunctions functions, FunctionCaller salt, StateFiles files, JinjaRenderer jinja) {
        this.functions = functions;
        this.salt = salt;
        this.files = files;
        this.jinja = jinja;
    }

    /**
     * @param test Salt's {@code test=True}: functions change nothing and report what they would change
     * @throws StateCompileException when a chunk names a state function that does not exist (nothing has run then)
     */
    public Map<String, Object> run(ExecutionPlan plan, boolean test, RenderContext context) {
        List<String> unknown = new ArrayList<>();
        for (StateChunk chunk : plan.order()) {
            if (functions.get(chunk.state(), chunk.fun()).isEmpty()) {
                unknown.add("State '" + chunk.state() + "." + chunk.fun() + "' was not found in SLS '" + chunk.sls() + "'");
            }
        }
        if (!unknown.isEmpty()) {
            throw new StateCompileException(unknown);
        }
        Map<String, Object> ret = new LinkedHashMap<>();
        Map<StateChunk, StateResult> results = new IdentityHashMap<>();
        Map<StateChunk, StateResult> tried = new IdentityHashMap<>();
        for (StateChunk chunk : plan.order()) {
            stopIfKilled(chunk);
            LocalTime start = LocalTime.now();
            long t0 = System.nanoTime();
            List<Requisite> lost = plan.lostRequisitesOf(chunk);
            StateResult result = lost.isEmpty() ? runOne(chunk, plan, results, tried, test, context)
                    : StateResult.failed(notFound(lost));
            results.put(chunk, result);
            ret.put(chunk.tag(), entry(chunk.name(), chunk.id(), chunk.sls(), result, ret.size(), start, t0));
            if (failsHard(chunk, result, test)) {
                break; // Salt's check_failhard: the states after it do not run, nor appear in the return
            }
        }
        runListeners(plan, results, ret, test, context);
        return ret;
    }

    /**
     * Salt's {@code call_listen}: after every state, each listener whose watched state changed something runs its
     * {@code mod_watch} once, as {@code <state>_|-listener_<id>_|-<name>_|-mod_watch} (without its requisites);
     * a typed {@code listen} naming nothing, or a {@code listen_in} whose source changed and names nothing,
     * is reported as Salt's {@code Listen_Error} entry.
     */
    private void runListeners(ExecutionPlan plan, Map<StateChunk, StateResult> results, Map<String, Object> ret,
            boolean test, RenderContext context) {
        Map<String, Map<String, Object>> errors = new LinkedHashMap<>();
        java.util.Set<StateChunk> fired = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (ExecutionPlan.Listen listen : plan.listens()) {
            boolean changed = listen.watched().stream().anyMatch(w -> results.containsKey(w) && !results.get(w).changes().isEmpty());
            Requisite r = listen.requisite();
            if (listen.listener() == null || listen.watched().isEmpty()) {
                boolean reportNow = listen.listener() == null ? changed : r.type() != null;
                if (reportNow && r.type() != null) {
                    // Salt's _l_tag and words; such an entry has no __sls__, __id__ or timing
                    Map<String, Object> error = new LinkedHashMap<>();
                    error.put("comment", "Referenced state " + r.type() + ": " + r.target() + " does not exist");
                    error.put("name", "listen_" + r.type() + ":" + r.target());
                    error.put("result", false);
                    error.put("changes", Map.of());
                    errors.put("Listen_Error_|-listen_" + r.target() + "_|-listen_" + r.type() + "_|-Listen_Error", error);
                }
                continue;
            }
            if (!changed || !results.containsKey(listen.listener()) || !fired.add(listen.listener())) {
                continue;
            }
            StateChunk l = listen.listener();
            stopIfKilled(l);
            LocalTime start = LocalTime.now();
            long t0 = System.nanoTime();
            StateFunction function = functions.watcher(l.state()).orElse(functions.get(l.state(), l.fun()).orElseThrow());
            StateResult result = call(l, function, test, context);
            String id = "listener_" + l.id();
            ret.put(l.state() + "_|-" + id + "_|-" + l.name() + "_|-mod_watch",
                    entry(l.name(), id, l.sls(), result, ret.size(), start, t0));
        }
        errors.forEach((tag, error) -> {
            error.put("__run_num__", ret.size());
            ret.put(tag, error);
        });
    }

    private static void stopIfKilled(StateChunk chunk) {
        if (Thread.currentThread().isInterrupted()) {
            // a killed job (saltutil.kill_job): Salt's minion process dies with it, so nothing more may run
            throw new StatesException("the state run was killed before " + chunk.tag());
        }
    }

    private static Map<String, Object> entry(String name, String id, String sls, StateResult result, int runNum,
            LocalTime start, long t0) {
        double durationMs = Math.round((System.nanoTime() - t0) / 1000.0) / 1000.0;
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", name);
        entry.put("changes", result.changes());
        entry.put("result", result.result());
        entry.put("comment", result.comment());
        entry.put("__sls__", sls);
        entry.put("__run_num__", runNum);
        entry.put("start_time", start.format(START_TIME));
        entry.put("duration", durationMs);
        entry.put("__id__", id);
        return entry;
    }

    /**
     * Salt's comment for a state whose requisites name nothing: each kind (in Salt's order) and under it each
     * requisite as {@code type: target} ({@code id: target} for a bare name).
     */
    static String notFound(List<Requisite> lost) {
        StringBuilder comment = new StringBuilder("The following requisites were not found:\n");
        for (RequisiteKind kind : List.of(RequisiteKind.REQUIRE, RequisiteKind.WATCH, RequisiteKind.PREREQ,
                RequisiteKind.ONFAIL, RequisiteKind.ONCHANGES)) {
            List<Requisite> ofKind = lost.stream().filter(r -> r.kind() == kind).toList();
            if (!ofKind.isEmpty()) {
                comment.append(" ".repeat(19)).append(kind.key()).append(":\n");
                for (Requisite r : ofKind) {
                    comment.append(" ".repeat(23)).append(r.type() == null ? "id" : r.type()).append(": ").append(r.target()).append('\n');
                }
            }
        }
        return comment.toString();
    }

    /** Whether any state of a return failed (Salt's minion then sets retcode 2). */
    public static boolean failed(Map<String, Object> ret) {
        return ret.values().stream().anyMatch(v -> v instanceof Map<?, ?> m && Boolean.FALSE.equals(m.get("result")));
    }

    /**
     * @param tried the results of states tried in test mode for a prereq (Salt's {@code pre}), by state
     */
    private StateResult runOne(StateChunk chunk, ExecutionPlan plan, Map<StateChunk, StateResult> results,
            Map<StateChunk, StateResult> tried, boolean test, RenderContext context) {
        List<String> failedReqs = new ArrayList<>();
        boolean hasOnchanges = false;
        boolean anyChanged = false;
        boolean hasOnfail = false;
        boolean anyFailed = false;
        boolean watchedChanged = false;
        boolean hasPrereq = false;
        boolean prereqWouldChange = false;
        for (ExecutionPlan.Edge edge : plan.requisitesOf(chunk)) {
            if (edge.kind() == RequisiteKind.PREREQ) {
                // Salt tries the target in test mode first; this state runs only if the target would change
                StateResult pre = tried.get(edge.target());
                if (pre == null) {
                    pre = runOne(edge.target(), plan, results, tried, true, context);
                    tried.put(edge.target(), pre);
                }
                hasPrereq = true;
                prereqWouldChange |= !pre.changes().isEmpty();
                continue;
            }
            if (edge.kind() == RequisiteKind.PREREQUIRED) {
                StateResult by = results.get(edge.target());
                if (by != null && Boolean.FALSE.equals(by.result()) && tried.containsKey(chunk)) {
                    // the state that prereqs this one failed: this one does not run; Salt reports its test try
                    return new StateResult(null, Map.of(), tried.get(chunk).comment());
                }
                continue;
            }
            StateResult target = results.get(edge.target());
            boolean failed = Boolean.FALSE.equals(target.result());
            boolean changed = !target.changes().isEmpty();
            switch (edge.kind()) {
                case ONFAIL -> {
                    hasOnfail = true;
                    anyFailed |= failed;
                }
                case ONCHANGES -> {
                    hasOnchanges = true;
                    anyChanged |= changed;
                }
                case WATCH -> watchedChanged |= changed;
                default -> { }
            }
            if (failed && edge.kind() != RequisiteKind.ONFAIL) {
                failedReqs.add(edge.target().sls() + "." + edge.target().id());
            }
        }
        if (!failedReqs.isEmpty()) {
            return StateResult.failed("One or more requisite failed: " + String.join(", ", failedReqs));
        }
        if (hasOnfail && !anyFailed) {
            return StateResult.ok("State was not run because onfail req did not change");
        }
        if (hasOnchanges && !anyChanged) {
            return StateResult.ok("State was not run because none of the onchanges reqs changed");
        }
        if (hasPrereq && !prereqWouldChange) {
            return StateResult.ok("No changes detected");
        }
        StateFunction function = functions.get(chunk.state(), chunk.fun()).orElseThrow();
        if (watchedChanged && functions.watcher(chunk.state(), chunk.fun()).isPresent()) {
            function = functions.watcher(chunk.state(), chunk.fun()).get();
        }
        return call(chunk, function, test, context);
    }

    /** A failed (not a predicted) result of a state with {@code failhard: True} stops a real run. */
    private static boolean failsHard(StateChunk chunk, StateResult result, boolean test) {
        Object failhard = chunk.args().get(FAILHARD);
        boolean on = failhard instanceof Boolean b ? b : failhard != null && String.valueOf(failhard).equalsIgnoreCase("true");
        return on && !test && Boolean.FALSE.equals(result.result());
    }

    private StateResult call(StateChunk chunk, StateFunction function, boolean test, RenderContext context) {
        RenderContext own = chunk.saltenv().isEmpty() ? context : context.withSaltenv(chunk.saltenv());
        Map<String, Object> args = chunk.args();
        if (args.containsKey(FAILHARD)) {
            args = new LinkedHashMap<>(args);
            args.remove(FAILHARD); // the run's, not the function's (Salt's state system reads it)
        }
        StateCall call = new StateCall(chunk.name(), args, test, salt, files, jinja,
                own.forFile(chunk.sls(), context.path()));
        try {
            return function.apply(call);
        } catch (RuntimeException e) {
            log.debug("state {} raised", chunk.tag(), e);
            return StateResult.failed("An exception occurred in this state: " + e.getMessage());
        }
    }
}
