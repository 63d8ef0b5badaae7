package io.jsalt.bench.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.states.compile.ExecutionPlan;
import io.jsalt.states.compile.SlsCompiler;
import io.jsalt.states.compile.StateChunk;
import io.jsalt.states.files.FolderFiles;
import io.jsalt.states.render.FunctionCaller;
import io.jsalt.states.render.RenderContext;
import io.jsalt.states.render.SlsRenderer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The states scenario's tree compiles to N file.managed templates under the minion's own cache folder. */
class StateApplyTreeTest {
    @TempDir
    Path root;

    @Test
    void theBenchSlsIsNTemplatesEachWithItsOwnContext() throws Exception {
        StateApply.writeTree(root, 7);
        FolderFiles files = FolderFiles.base(root);
        RenderContext context = new RenderContext(Map.of("id", "m"), Map.of(), Map.of("cachedir", "/c"), "base", "", "",
                FunctionCaller.NONE);

        ExecutionPlan plan = new SlsCompiler(files, new SlsRenderer(files)).compile(List.of("bench"), context);

        assertThat(plan.order()).hasSize(7).allSatisfy(c -> assertThat(c.state() + "." + c.fun()).isEqualTo("file.managed"));
        assertThat(plan.order()).extracting(StateChunk::name).startsWith("/c/bench/item-0.conf", "/c/bench/item-1.conf");
        assertThat(plan.order().get(6).args()).containsEntry("template", "jinja").containsEntry("context", Map.of("i", 6));
    }
}
