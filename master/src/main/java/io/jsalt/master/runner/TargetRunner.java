package io.jsalt.master.runner;

import static io.jsalt.master.runner.Parameter.optional;
import static io.jsalt.master.runner.Parameter.required;

import io.jsalt.master.runner.Parameter.Type;
import io.jsalt.master.targeting.TargetResolver;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * jsalt's own {@code target} runner: {@code target.preview} says which minions a target would reach,
 * without publishing anything ({@code jsalt --preview-target} uses it).
 */
public final class TargetRunner implements RunnerModule {
    private final TargetResolver resolver;

    public TargetRunner(TargetResolver resolver) {
        this.resolver = resolver;
    }

    @Override
    public List<RunnerFunction> functions() {
        return List.of(new RunnerFunction(RunnerSignature.of("target.preview", required("tgt", Type.TARGET),
                optional("tgt_type", Type.STRING, "glob")),
                        "Return the minions a target reaches, without publishing: {minions, undecided, missing}.", a -> preview(a.value("tgt"), a.string("tgt_type"))));
    }

    /**
     * {@code {"minions": [...], "undecided": [...], "missing": [...]}}: the accepted minions the target
     * matches, those it may match but whose grains the master does not know yet (a job is sent to them too),
     * and the ids a list target names that are not accepted.
     */
    Map<String, Object> preview(Object tgt, String tgtType) {
        TargetResolver.Resolution r = resolver.resolve(tgtType, tgt);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("minions", r.expected());
        out.put("undecided", r.undecided());
        out.put("missing", r.missing());
        return out;
    }
}
