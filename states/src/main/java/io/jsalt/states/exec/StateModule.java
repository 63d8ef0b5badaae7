package io.jsalt.states.exec;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleContext;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.FunctionCatalog;
import io.jsalt.modules.api.JobControl;
import io.jsalt.modules.api.KwArgs;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.states.StatesException;
import io.jsalt.states.builtin.BuiltinStates;
import io.jsalt.states.compile.ExecutionPlan;
import io.jsalt.states.compile.SlsCompiler;
import io.jsalt.states.compile.StateChunk;
import io.jsalt.states.compile.StateCompileException;
import io.jsalt.states.files.MasterStateFiles;
import io.jsalt.states.files.StateFiles;
import io.jsalt.states.pillar.PillarMerge;
import io.jsalt.states.render.RenderContext;
import io.jsalt.states.render.SlsRenderer;
import io.jsalt.states.run.StateRunner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Salt's {@code state} execution module: compiles SLS files from the master's file server and applies them on
 * this minion. A run whose states fail returns retcode 2, as Salt's minion sets it; a tree that does not render
 * or compile returns Salt's list of errors with retcode 1.
 */
@SaltModule(name = "state", doc = "Apply SLS files from the master's file server (Salt's state module).")
public final class StateModule implements ExecutionModule {
    /** Salt's EX_STATE_FAILURE. */
    static final int RETCODE_STATE_FAILED = 2;
    /** Keywords of the run itself, not arguments of a state function. */
    private static final Set<String> RUN_KEYWORDS = Set.of("test", "saltenv", "pillarenv", "queue", "concurrent",
            "pillar");
    /** Accepted by the functions that check the pillar's errors (not state.single, where it is a state's argument). */
    private static final String FORCE = "force";

    @SaltFunction(outputter = "highstate", doc = "Apply the named SLS files (comma-separated or a list); without names, the highstate "
            + "that top.sls gives this minion (glob targets only). Keywords: test=True, saltenv, pillarenv, pillar={...} (merged over the minion's pillar for this run), queue=True, concurrent=True.\n\n"
            + "CLI Example: salt '*' state.apply web,db test=True")
    public CallResult apply(@Arg(value = "mods", defaultValue = Arg.NULL) Object mods, @KwArgs Map<String, Object> kwargs,
            ModuleContext context, FunctionCatalog catalog, JobControl job) {
        refuseUnknown("state.apply", kwargs);
        return guarded("state.apply", kwargs, job, () -> {
            Run run = new Run(context, catalog, job, kwargs).checkPillar();
            List<String> names = names(mods);
            return names.isEmpty() ? run.highstate() : run.apply(names);
        });
    }

    @SaltFunction(outputter = "highstate", doc = "Apply the named SLS files (comma-separated or a list). Keywords: test=True, saltenv.\n\n"
            + "CLI Example: salt '*' state.sls web test=True")
    public CallResult sls(@Arg("mods") Object mods, @KwArgs Map<String, Object> kwargs, ModuleContext context,
            FunctionCatalog catalog, JobControl job) {
        List<String> names = names(mods);
        if (names.isEmpty()) {
            throw new CommandExecutionException("state.sls needs the name of at least one SLS");
        }
        refuseUnknown("state.sls", kwargs);
        return guarded("state.sls", kwargs, job, () -> new Run(context, catalog, job, kwargs).checkPillar().apply(names));
    }

    @SaltFunction(outputter = "highstate", doc = "Apply the highstate: the SLS files top.sls gives this minion (glob targets only).\n\n"
            + "CLI Example: salt '*' state.highstate test=True")
    public CallResult highstate(@KwArgs Map<String, Object> kwargs, ModuleContext context, FunctionCatalog catalog,
            JobControl job) {
        refuseUnknown("state.highstate", kwargs);
        return guarded("state.highstate", kwargs, job, () -> new Run(context, catalog, job, kwargs).checkPillar().highstate());
    }

    @SaltFunction(doc = "Show the high data the named SLS files render to (after include, extend and exclude), "
            + "without running anything.\n\nCLI Example: salt '*' state.show_sls web")
    public CallResult show_sls(@Arg("mods") Object mods, @KwArgs Map<String, Object> kwargs, ModuleContext context,
            FunctionCatalog catalog, JobControl job) {
        refuseUnknown("state.show_sls", kwargs);
        return shown(() -> {
            Run run = new Run(context, catalog, job, kwargs).checkPillar();
            return run.compiler().highData(Map.of(run.saltenv(), names(mods)), run.renderContext);
        });
    }

    @SaltFunction(doc = "Show the state calls (low data) the named SLS files compile to, in definition order, "
            + "without running them.\n\nCLI Example: salt '*' state.show_low_sls web")
    public CallResult show_low_sls(@Arg("mods") Object mods, @KwArgs Map<String, Object> kwargs, ModuleContext context,
            FunctionCatalog catalog, JobControl job) {
        refuseUnknown("state.show_low_sls", kwargs);
        return shown(() -> {
            Run run = new Run(context, catalog, job, kwargs).checkPillar();
            return run.compiler().lowData(Map.of(run.saltenv(), names(mods)), run.renderContext);
        });
    }

    @SaltFunction(doc = "Show the high data of the highstate: what the top files give this minion, without running "
            + "anything.\n\nCLI Example: salt '*' state.show_highstate")
    public CallResult show_highstate(@KwArgs Map<String, Object> kwargs, ModuleContext context, FunctionCatalog catalog,
            JobControl job) {
        refuseUnknown("state.show_highstate", kwargs);
        return shown(() -> {
            Run run = new Run(context, catalog, job, kwargs).checkPillar();
            return run.compiler().highData(run.topMatches(), run.renderContext);
        });
    }

    @SaltFunction(doc = "The state run going on on this minion, as Salt words it (an empty list when none).\n\n"
            + "CLI Example: salt '*' state.running")
    public List<String> running() {
        return StateRunGuard.MINION.running().map(List::of).orElse(List.of());
    }

    /** A show_* answer, or Salt's list of errors with retcode 1 for a tree that does not compile or no pillar. */
    private static CallResult shown(Supplier<Object> data) {
        try {
            return CallResult.ok(data.get());
        } catch (PillarRenderErrorsException e) {
            return CallResult.failed(e.showAnswer(), PillarRenderErrorsException.RETCODE_PILLAR_FAILURE);
        } catch (StatesException e) {
            return compileFailure(e);
        }
    }

    @SaltFunction(outputter = "highstate", doc = "Run one state function: state.single file.managed name=/etc/motd contents=hello. "
            + "Keywords: test=True, saltenv, and the state function's own arguments.\n\n"
            + "CLI Example: salt '*' state.single test.succeed_with_changes name=x")
    public CallResult single(@Arg("fun") String fun, @Arg(value = "name", defaultValue = Arg.NULL) String name,
            @KwArgs Map<String, Object> kwargs, ModuleContext context, FunctionCatalog catalog, JobControl job) {
        int dot = fun.indexOf('.');
        if (dot <= 0 || name == null) {
            throw new CommandExecutionException("state.single needs a state function (state.fun) and name=");
        }
        Map<String, Object> args = new LinkedHashMap<>(kwargs);
        args.keySet().removeIf(k -> k.startsWith("__pub") || RUN_KEYWORDS.contains(k));
        StateChunk chunk = new StateChunk(name, "", fun.substring(0, dot), fun.substring(dot + 1), name, 1, args, List.of());
        return guarded("state.single", kwargs, job,
                () -> new Run(context, catalog, job, kwargs).execute(ExecutionPlan.single(chunk)));
    }

    @SaltFunction(outputter = "highstate", doc = "As state.apply with test=True: what would change, nothing changed.\n\n"
            + "CLI Example: salt '*' state.test web")
    public CallResult test(@Arg(value = "mods", defaultValue = Arg.NULL) Object mods, @KwArgs Map<String, Object> kwargs,
            ModuleContext context, FunctionCatalog catalog, JobControl job) {
        Map<String, Object> asTest = new LinkedHashMap<>(kwargs);
        asTest.put("test", true);
        refuseUnknown("state.test", asTest);
        return guarded("state.test", asTest, job, () -> {
            Run run = new Run(context, catalog, job, asTest).checkPillar();
            List<String> names = names(mods);
            return names.isEmpty() ? run.highstate() : run.apply(names);
        });
    }

    @SaltFunction(outputter = "highstate", doc = "Run one ID of the named SLS files, and what it requires. Keywords: test=True, "
            + "saltenv.\n\nCLI Example: salt '*' state.sls_id web_conf web")
    public CallResult sls_id(@Arg("id_") String id, @Arg("mods") Object mods, @KwArgs Map<String, Object> kwargs,
            ModuleContext context, FunctionCatalog catalog, JobControl job) {
        List<String> names = names(mods);
        if (names.isEmpty()) {
            throw new CommandExecutionException("state.sls_id needs an ID and the name of at least one SLS");
        }
        refuseUnknown("state.sls_id", kwargs);
        return guarded("state.sls_id", kwargs, job, () -> {
            Run run = new Run(context, catalog, job, kwargs).checkPillar();
            ExecutionPlan plan;
            try {
                plan = run.compile(names).onlyId(id);
            } catch (StatesException e) {
                return compileFailure(e);
            }
            if (plan.order().isEmpty()) {
                // Salt raises SaltInvocationError with these words
                throw new CommandExecutionException("No matches for ID '" + id + "' found in SLS '" + String.join(",", names)
                        + "' within saltenv '" + run.saltenv() + "'");
            }
            return run.execute(plan);
        });
    }

    @SaltFunction(doc = "The SLS names that the saltenv's top.sls gives this minion, by saltenv.\n\n"
            + "CLI Example: salt '*' state.show_top")
    public CallResult show_top(@KwArgs Map<String, Object> kwargs, ModuleContext context, FunctionCatalog catalog,
            JobControl job) {
        refuseUnknown("state.show_top", kwargs);
        return shown(() -> new Run(context, catalog, job, kwargs).checkPillar().topMatches());
    }

    /**
     * Runs {@code body} once no other state run is going on (Salt's {@code _check_queue}): refused with Salt's
     * message and retcode 1 while another runs, unless {@code queue=True} (wait) or {@code concurrent=True}.
     */
    private static CallResult guarded(String fun, Map<String, Object> kwargs, JobControl job, Supplier<CallResult> body) {
        if (Run.truthy(kwargs.get("concurrent"))) {
            return started(body);
        }
        StateRunGuard.Turn turn;
        if (Run.truthy(kwargs.get("queue"))) {
            try {
                turn = StateRunGuard.MINION.await(fun, job.jid());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CommandExecutionException("the queued state run was stopped before its turn");
            }
        } else {
            Optional<StateRunGuard.Turn> now = StateRunGuard.MINION.tryEnter(fun, job.jid());
            if (now.isEmpty()) {
                return CallResult.failed(List.of(StateRunGuard.MINION.conflictMessage()), ModuleRegistry.RETCODE_ERROR);
            }
            turn = now.get();
        }
        try (turn) {
            return started(body);
        }
    }

    /** The run, or Salt's list of errors with retcode 1 when it could not start: no pillar came from the master. */
    private static CallResult started(Supplier<CallResult> body) {
        try {
            return body.get();
        } catch (PillarUnavailableException e) {
            return compileFailure(e);
        } catch (PillarRenderErrorsException e) {
            return CallResult.failed(e.runAnswer(), PillarRenderErrorsException.RETCODE_PILLAR_FAILURE);
        }
    }

    /** Salt's other keywords ({@code exclude=}, {@code pillarenv=}, ...) are refused by name, not ignored. */
    private static void refuseUnknown(String fun, Map<String, Object> kwargs) {
        for (String key : kwargs.keySet()) {
            if (!key.startsWith("__") && !RUN_KEYWORDS.contains(key) && !FORCE.equals(key)) {
                throw new CommandExecutionException(fun + ": the keyword '" + key + "' is not supported by jsalt yet");
            }
        }
    }

    /** "web,db", ["web", "db"] or null. */
    static List<String> names(Object mods) {
        List<String> names = new ArrayList<>();
        if (mods == null) {
            return names;
        }
        for (Object item : mods instanceof List<?> list ? list : List.of(mods)) {
            for (String part : String.valueOf(item).split(",")) {
                if (!part.isBlank()) {
                    names.add(part.strip());
                }
            }
        }
        return names;
    }

    /** Salt's answer when the top files give this minion nothing. */
    private static CallResult nothingMatched() {
        return CallResult.failed(List.of("No Top file or master_tops data matches found. Please see master "
                + "log for details."), RETCODE_STATE_FAILED);
    }

    private static CallResult compileFailure(StatesException e) {
        List<String> errors = e instanceof StateCompileException c ? c.errors() : List.of(e.getMessage());
        return CallResult.failed(errors, ModuleRegistry.RETCODE_ERROR);
    }

    /** One state run: the minion's context, files and functions, and the run's keywords. */
    private static final class Run {
        private final ModuleContext context;
        private final StateFiles files;
        private final SlsRenderer renderer;
        private final RenderContext renderContext;
        private final RegistryCaller salt;
        private final boolean test;
        /** The saltenv asked for; null when none was, and a highstate then merges every saltenv's top file. */
        private final String askedSaltenv;
        /** force=True: run even with a pillar that did not render whole. */
        private final boolean force;

        Run(ModuleContext context, FunctionCatalog catalog, JobControl job, Map<String, Object> kwargs) {
            if (!(catalog instanceof ModuleRegistry registry)) {
                throw new CommandExecutionException("the state module needs the minion's module registry");
            }
            this.context = context;
            this.files = new MasterStateFiles(context.files());
            this.renderer = new SlsRenderer(files);
            this.test = truthy(kwargs.get("test"));
            this.askedSaltenv = kwargs.get("saltenv") == null ? null : String.valueOf(kwargs.get("saltenv"));
            this.force = truthy(kwargs.get(FORCE));
            String saltenv = askedSaltenv == null ? "base" : askedSaltenv;
            Map<String, Object> opts = new LinkedHashMap<>(context.opts());
            opts.put("test", test);
            String pillarenv = kwargs.get("pillarenv") == null ? null : String.valueOf(kwargs.get("pillarenv"));
            Map<String, Object> runPillar = pillar(context, kwargs.get("pillar"), askedSaltenv, pillarenv);
            this.salt = new RegistryCaller(registry, job, runPillar);
            this.renderContext = new RenderContext(context.grains(), runPillar, opts, saltenv, "", "", salt);
        }

        /**
         * This run, unless the master said parts of the pillar did not render ({@code _errors}) and the run was not
         * forced: Salt's {@code _get_pillar_errors}, which state.apply, sls, highstate, sls_id and the show_*
         * functions check (state.single does not).
         *
         * @throws PillarRenderErrorsException naming the errors
         */
        Run checkPillar() {
            if (!force && renderContext.pillar().get("_errors") instanceof List<?> errors && !errors.isEmpty()) {
                throw new PillarRenderErrorsException(errors.stream().map(String::valueOf).toList());
            }
            return this;
        }

        ExecutionPlan compile(List<String> mods) {
            return compiler().compile(mods, renderContext);
        }

        SlsCompiler compiler() {
            return new SlsCompiler(files, renderer);
        }

        CallResult apply(List<String> mods) {
            ExecutionPlan plan;
            try {
                plan = compile(mods);
            } catch (StatesException e) {
                return compileFailure(e);
            }
            return execute(plan);
        }

        String saltenv() {
            return renderContext.saltenv();
        }

        /** What the top files give this minion, by saltenv (Salt's {@code show_top}). */
        Map<String, List<String>> topMatches() {
            return TopFile.matches(files, renderer, renderContext, askedSaltenv, (matcher, expression) ->
                    context.targets(matcher, expression, needsNodegroups(matcher, expression) ? masterNodegroups() : Map.of()));
        }

        /** Asked of the master only when a target names a nodegroup: Salt's highstate uses the master's. */
        private static boolean needsNodegroups(String matcher, Object expression) {
            return matcher.equals("nodegroup") || String.valueOf(expression).contains("N@");
        }

        private Map<String, Object> masterNodegroups() {
            Object nodegroups = context.files().masterOpts().get("nodegroups");
            Map<String, Object> out = new LinkedHashMap<>();
            if (nodegroups instanceof Map<?, ?> m) {
                m.forEach((k, v) -> out.put(String.valueOf(k), v));
            }
            return out;
        }

        /** The highstate's plan; null when the top files give this minion nothing. */
        ExecutionPlan compileHighstate() {
            Map<String, List<String>> matches = topMatches();
            return matches.isEmpty() ? null : new SlsCompiler(files, renderer).compile(matches, renderContext);
        }

        CallResult highstate() {
            ExecutionPlan plan;
            try {
                plan = compileHighstate();
            } catch (StatesException e) {
                return compileFailure(e);
            }
            if (plan == null) {
                return nothingMatched();
            }
            return execute(plan);
        }

        CallResult execute(ExecutionPlan plan) {
            Map<String, Object> ret;
            try {
                ret = new StateRunner(BuiltinStates.all(), salt, files, renderer.jinja()).run(plan, test, renderContext);
            } catch (StatesException e) {
                return compileFailure(e);
            }
            return StateRunner.failed(ret) ? CallResult.withRetcode(ret, RETCODE_STATE_FAILED) : CallResult.ok(ret);
        }

        /**
         * The pillar the master compiles for this run (Salt's {@code _gather_pillar}: fresh at every state run, the
         * run's {@code pillar=}, saltenv and pillarenv sent along), with the {@code pillar=} merged on top again as Salt's State
         * does (its default strategy, lists replaced).
         *
         * @throws PillarUnavailableException when the master sent no pillar: the run must not render without it
         */
        static Map<String, Object> pillar(ModuleContext context, Object override, String saltenv, String pillarenv) {
            if (override != null && !(override instanceof Map<?, ?>)) {
                // Salt's words
                throw new CommandExecutionException("Pillar data must be formatted as a dictionary, unless pillar_enc is specified.");
            }
            Map<String, Object> overrides = override == null ? Map.of() : PillarMerge.deepCopy((Map<?, ?>) override);
            Map<String, Object> compiled;
            try {
                compiled = context.compilePillar(overrides, saltenv, pillarenv);
            } catch (CommandExecutionException e) {
                throw new PillarUnavailableException(e.getMessage());
            }
            return overrides.isEmpty() ? compiled : PillarMerge.defaults().merge(compiled, PillarMerge.deepCopy(overrides));
        }

        static boolean truthy(Object value) {
            return value instanceof Boolean b ? b : value != null && String.valueOf(value).equalsIgnoreCase("true");
        }
    }
}
