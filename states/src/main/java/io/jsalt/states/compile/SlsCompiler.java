package io.jsalt.states.compile;

import io.jsalt.states.files.StateFiles;
import io.jsalt.states.render.RenderContext;
import io.jsalt.states.render.SlsRenderer;
import java.util.List;
import java.util.Map;

/**
 * From SLS names to an {@link ExecutionPlan}: render the files and their includes, apply extend and exclude,
 * split declarations into state calls, resolve requisites and order the calls.
 */
public final class SlsCompiler {
    private final StateFiles files;
    private final SlsRenderer renderer;

    public SlsCompiler(StateFiles files, SlsRenderer renderer) {
        this.files = files;
        this.renderer = renderer;
    }

    /**
     * @param context the render context of the run (its saltenv is where the files are looked up)
     * @throws StateCompileException         for a tree that cannot be compiled
     * @throws io.jsalt.states.render.RenderException for a file that does not render
     */
    public ExecutionPlan compile(List<String> mods, RenderContext context) {
        return plan(new SlsCollector(files, renderer, context).collect(mods));
    }

    /**
     * The SLS names of several saltenvs (what the merged top files give a minion) as one plan; each SLS is read
     * and rendered in its own saltenv, and its states run with it (Salt's {@code __env__}).
     */
    public ExecutionPlan compile(Map<String, List<String>> modsBySaltenv, RenderContext context) {
        return plan(new SlsCollector(files, renderer, context).collect(modsBySaltenv));
    }

    /** Salt's high data of {@code mods} by saltenv ({@code state.show_sls}, {@code state.show_highstate}). */
    public Map<String, Object> highData(Map<String, List<String>> modsBySaltenv, RenderContext context) {
        List<Declaration> declarations = new SlsCollector(files, renderer, context).collect(modsBySaltenv);
        plan(declarations); // the same checks as a run: a tree that would not run is not shown either
        return HighData.of(declarations);
    }

    /** Salt's low data of {@code mods} by saltenv ({@code state.show_low_sls}), in definition order. */
    public List<Map<String, Object>> lowData(Map<String, List<String>> modsBySaltenv, RenderContext context) {
        List<Declaration> declarations = new SlsCollector(files, renderer, context).collect(modsBySaltenv);
        ChunkBuilder builder = new ChunkBuilder(declarations);
        declarations.forEach(builder::add);
        ExecutionPlan.of(builder.sorted(), builder.ins);
        return LowData.of(builder);
    }

    private static ExecutionPlan plan(List<Declaration> declarations) {
        ChunkBuilder builder = new ChunkBuilder(declarations);
        declarations.forEach(builder::add);
        return ExecutionPlan.of(builder.sorted(), builder.ins);
    }
}
