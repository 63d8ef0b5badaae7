package io.jsalt.states.compile;

import io.jsalt.states.files.StateFiles;
import io.jsalt.states.render.RenderContext;
import io.jsalt.states.render.SlsRenderer;
import java.util.List;

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
        List<Declaration> declarations = new SlsCollector(files, renderer, context).collect(mods);
        ChunkBuilder builder = new ChunkBuilder();
        declarations.forEach(builder::add);
        return ExecutionPlan.of(builder.chunks, builder.ins);
    }
}
