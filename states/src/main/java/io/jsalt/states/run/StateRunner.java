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
        int runNum = 0;
        for (StateChunk chunk : plan.order()) {
            if (Thread.currentThread().isInterrupted()) {
                // a killed job (saltutil.kill_job): Salt's minion process dies with it, so nothing more may run
                throw new StatesException("the state run was killed before " + chunk.tag());
            }
            LocalTime start = LocalTime.now();
            long t0 = System.nanoTime();
            List<Requisite> lost = plan.lostRequisitesOf(chunk);
            StateResult result = lost.isEmpty() ? runOne(chunk, plan.requisitesOf(chunk), results, test, context)
                    : StateResult.failed(notFound(lost));
            double durationMs = Math.round((System.nanoTime() - t0) / 1000.0) / 1000.0;
            results.put(chunk, result);
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", chunk.name());
            entry.put("changes", result.changes());
            entry.put("result", result.result());
            entry.put("comment", result.comment());
            entry.put("__sls__", chunk.sls());
            entry.put("__run_num__", runNum++);
            entry.put("start_time", start.format(START_TIME));
            entry.put("duration", durationMs);
            entry.put("__id__", chunk.id());
            ret.put(chunk.tag(), entry);
        }
        return ret;
    }

    /**
     * Salt's comment for a state whose requisites name nothing: each kind (in Salt's order) and under it each
     * requisite as {@code type: target} ({@code id: target} for a bare name).
     */
    static String notFound(List<Requisite> lost) {
        StringBuilder comment = new StringBuilder("The following requisites were not found:\n");
        for (RequisiteKind kind : List.of(RequisiteKind.REQUIRE, RequisiteKind.WATCH, RequisiteKind.ONFAIL, RequisiteKind.ONCHANGES)) {
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

    private StateResult runOne(StateChunk chunk, List<ExecutionPlan.Edge> edges, Map<StateChunk, StateResult> results,
            boolean test, RenderContext context) {
        List<String> failedReqs = new ArrayList<>();
        boolean hasOnchanges = false;
        boolean anyChanged = false;
        boolean hasOnfail = false;
        boolean anyFailed = false;
        boolean watchedChanged = false;
        for (ExecutionPlan.Edge edge : edges) {
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
                case REQUIRE -> { }
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
        StateFunction function = functions.get(chunk.state(), chunk.fun()).orElseThrow();
        if (watchedChanged && functions.watcher(chunk.state(), chunk.fun()).isPresent()) {
            function = functions.watcher(chunk.state(), chunk.fun()).get();
        }
        StateCall call = new StateCall(chunk.name(), chunk.args(), test, salt, files, jinja,
                context.forFile(chunk.sls(), context.path()));
        try {
            return function.apply(call);
        } catch (RuntimeException e) {
            log.debug("state {} raised", chunk.tag(), e);
            return StateResult.failed("An exception occurred in this state: " + e.getMessage());
        }
    }
}
