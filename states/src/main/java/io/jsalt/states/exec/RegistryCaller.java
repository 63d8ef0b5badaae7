package io.jsalt.states.exec;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.RunPillar;
import io.jsalt.modules.api.JobControl;
import io.jsalt.states.StatesException;
import io.jsalt.states.render.FunctionCaller;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Calls the minion's execution modules for templates and states (Salt's {@code __salt__}), inside the job that runs
 * the state, so that commands started by states show in the job's proc record and die with it, and with the run's
 * pillar as the pillar module's ({@link RunPillar}).
 */
public final class RegistryCaller implements FunctionCaller {
    private final ModuleRegistry registry;
    private final JobControl job;
    private final Map<String, Object> pillar;

    /** Calls with whatever pillar the thread's run has set, if any (for a template rendered outside a state run). */
    public RegistryCaller(ModuleRegistry registry, JobControl job) {
        this(registry, job, null);
    }

    /** @param pillar the pillar the run renders with, or null to keep the thread's */
    public RegistryCaller(ModuleRegistry registry, JobControl job, Map<String, Object> pillar) {
        this.registry = registry;
        this.job = job;
        this.pillar = pillar;
    }

    @Override
    public boolean has(String fun) {
        return registry.has(fun);
    }

    /**
     * A function's own failure (a non-zero {@code cmd.retcode}) is a value; only a missing function or an
     * {@code ERROR:} answer (bad arguments, an exception) is thrown.
     */
    @Override
    public Object call(String fun, List<Object> args, Map<String, Object> kwargs) {
        List<Object> wire = new ArrayList<>(args);
        if (!kwargs.isEmpty()) {
            Map<String, Object> kw = new LinkedHashMap<>(kwargs);
            kw.put("__kwarg__", true);
            wire.add(kw);
        }
        if (!registry.has(fun)) {
            throw new StatesException("'" + fun + "' is not available.");
        }
        CallResult result = pillar == null ? registry.call(fun, wire, job)
                : RunPillar.during(pillar, () -> registry.call(fun, wire, job));
        if (result.retcode() == ModuleRegistry.RETCODE_NOT_AVAILABLE
                || !result.success() && result.ret() instanceof String text && text.startsWith("ERROR")) {
            throw new StatesException(fun + ": " + result.ret());
        }
        return result.ret();
    }
}
