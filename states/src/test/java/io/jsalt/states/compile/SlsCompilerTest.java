package io.jsalt.states.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.states.files.FolderFiles;
import io.jsalt.states.render.FunctionCaller;
import io.jsalt.states.render.RenderContext;
import io.jsalt.states.render.SlsRenderer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlsCompilerTest {
    @TempDir
    Path root;

    private void sls(String path, String text) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    private ExecutionPlan compile(String... mods) {
        FolderFiles files = FolderFiles.base(root);
        RenderContext context = new RenderContext(Map.of(), Map.of(), Map.of(), "base", "", "", FunctionCaller.NONE);
        return new SlsCompiler(files, new SlsRenderer(files)).compile(List.of(mods), context);
    }

    private static List<String> ids(ExecutionPlan plan) {
        return plan.order().stream().map(StateChunk::id).toList();
    }

    /** The tree salt-call --local (Salt 3006.8) ran and showed: state.apply, state.show_low_sls, state.show_sls. */
    private static final String ORDERED = """
            a:
              test.nop: []
            b:
              test.nop:
                - order: last
            c:
              test.nop:
                - order: 1
            d:
              test.nop:
                - order: first
            e:
              test.nop:
                - order: -1
            f:
              test.nop:
                - names:
                  - f2
                  - f1
            z:
              test.nop:
                - order: 1
            y:
              test.nop:
                - require:
                  - test: b
            g:
              test.nop:
                - order: sometime
            """;

    @Test
    void orderPlacesStatesAsSaltsOrderChunksAndRequisitesStillComeFirst() throws IOException {
        sls("ord.sls", ORDERED);
        ExecutionPlan plan = compile("ord");
        assertThat(plan.order().stream().map(StateChunk::name).toList())
                .containsExactly("d", "c", "z", "a", "f2", "f1", "b", "y", "g", "e");

        FolderFiles files = FolderFiles.base(root);
        RenderContext context = new RenderContext(Map.of(), Map.of(), Map.of(), "base", "", "", FunctionCaller.NONE);
        SlsCompiler compiler = new SlsCompiler(files, new SlsRenderer(files));
        List<Map<String, Object>> low = compiler.lowData(Map.of("base", List.of("ord")), context);
        assertThat(low.stream().map(c -> c.get("name") + "=" + c.get("order")).toList()).containsExactly("d=0", "c=1",
                "z=1", "a=10000", "f2=10001.0001", "f1=10001.0002", "y=10002", "g=10100", "e=1010099", "b=1010100");
        Map<String, Object> high = compiler.highData(Map.of("base", List.of("ord")), context);
        assertThat(((Map<?, ?>) high.get("b")).get("test")).isEqualTo(List.of(Map.of("order", "last"), "nop"));
        assertThat(((Map<?, ?>) high.get("y")).get("test")).isEqualTo(List.of(Map.of("require", List.of(Map.of("test", "b"))),
                "nop", Map.of("order", 10002)));
    }

    @Test
    void aFractionalOrderIsRefused() throws IOException {
        sls("frac.sls", "x:\n  test.nop:\n    - order: 1.5\n");
        assertThatThrownBy(() -> compile("frac")).isInstanceOf(StateCompileException.class)
                .hasMessageContaining("must be a whole number");
    }

    @Test
    void statesRunInDefinitionOrderWithIncludedFilesFirst() throws IOException {
        sls("web/init.sls", "include:\n  - .conf\n  - base\nz:\n  test.nop: []\na:\n  test.nop: []\n");
        sls("web/conf.sls", "conf:\n  test.nop: []\n");
        sls("base.sls", "b2:\n  test.nop: []\nb1:\n  test.nop: []\n");
        ExecutionPlan plan = compile("web");
        assertThat(ids(plan)).containsExactly("conf", "b2", "b1", "z", "a");
        assertThat(plan.order().get(0).sls()).isEqualTo("web.conf");
    }

    @Test
    void bothFunctionFormsAndNameAndNamesBecomeChunks() throws IOException {
        sls("a.sls", """
                short:
                  test.nop:
                    - name: first
                    - x: 1
                long:
                  test:
                    - x: 2
                    - nop
                many:
                  test.nop:
                    - names:
                      - n2
                      - n1:
                        - x: 3
                """);
        ExecutionPlan plan = compile("a");
        // names run in the order written: Salt 3006.8 ran names [zeta, alpha] as __run_num__ 0, 1 (checked with salt-call)
        assertThat(plan.order()).extracting(StateChunk::tag).containsExactly("test_|-short_|-first_|-nop",
                "test_|-long_|-long_|-nop", "test_|-many_|-n2_|-nop", "test_|-many_|-n1_|-nop");
        assertThat(plan.order().get(0).args()).isEqualTo(Map.of("x", 1));
        assertThat(plan.order().get(3).args()).isEqualTo(Map.of("x", 3));
    }

    @Test
    void aRequisiteRunsItsTargetFirst() throws IOException {
        sls("a.sls", """
                first:
                  test.nop:
                    - require:
                      - test: second
                    - watch:
                      - third
                second:
                  test.nop: []
                third:
                  test.nop:
                    - onchanges_in:
                      - test: fourth
                fourth:
                  test.nop: []
                """);
        ExecutionPlan plan = compile("a");
        assertThat(ids(plan)).containsExactly("second", "third", "first", "fourth");
        StateChunk first = plan.order().get(2);
        assertThat(plan.requisitesOf(first)).extracting(e -> e.kind() + ":" + e.target().id())
                .containsExactly("REQUIRE:second", "WATCH:third");
        assertThat(plan.requisitesOf(plan.order().get(3))).extracting(e -> e.kind() + ":" + e.target().id())
                .containsExactly("ONCHANGES:third");
    }

    @Test
    void anSlsRequisiteWaitsForEveryStateOfThatSls() throws IOException {
        sls("a.sls", "include:\n  - b\nlast:\n  test.nop:\n    - require:\n      - sls: b\n");
        sls("b.sls", "b1:\n  test.nop: []\nb2:\n  test.nop: []\n");
        ExecutionPlan plan = compile("a");
        assertThat(plan.requisitesOf(plan.order().get(2))).hasSize(2);
    }

    @Test
    void aRequisiteCycleIsAnErrorThatShowsTheCycle() throws IOException {
        sls("a.sls", """
                one:
                  test.nop:
                    - require:
                      - test: two
                two:
                  test.nop:
                    - require:
                      - test: one
                """);
        assertThatThrownBy(() -> compile("a")).isInstanceOf(StateCompileException.class)
                .hasMessage("Recursive requisite found: test: one -> test: two -> test: one");
    }

    @Test
    void aRequisiteThatNamesNothingIsKeptAsLostForItsStateAlone() throws IOException {
        sls("a.sls", "one:\n  test.nop:\n    - require:\n      - cmd: nowhere\ntwo:\n  test.nop: []\n");

        ExecutionPlan plan = compile("a");

        assertThat(plan.order()).hasSize(2);
        assertThat(plan.lostRequisitesOf(plan.order().get(0))).containsExactly(new Requisite(RequisiteKind.REQUIRE, "cmd", "nowhere"));
        assertThat(plan.lostRequisitesOf(plan.order().get(1))).isEmpty();
    }

    @Test
    void anInRequisiteThatNamesNothingIsAnErrorInItsOwnForm() throws IOException {
        sls("a.sls", "one:\n  test.nop:\n    - watch_in:\n      - test: nowhere\n");
        assertThatThrownBy(() -> compile("a")).isInstanceOf(StateCompileException.class)
                .hasMessage("Referenced state does not exist for requisite [watch_in: test: nowhere] in state [one] in SLS [a]");
    }

    @Test
    void extendReplacesArgumentsAndAddsRequisites() throws IOException {
        sls("base.sls", "svc:\n  test.nop:\n    - x: 1\n    - require:\n      - test: dep\ndep:\n  test.nop: []\nother:\n  test.nop: []\n");
        sls("a.sls", """
                include:
                  - base
                extend:
                  svc:
                    test:
                      - x: 2
                      - require:
                        - test: other
                """);
        ExecutionPlan plan = compile("a");
        StateChunk svc = plan.order().stream().filter(c -> c.id().equals("svc")).findFirst().orElseThrow();
        assertThat(svc.args()).isEqualTo(Map.of("x", 2));
        assertThat(plan.requisitesOf(svc)).extracting(e -> e.target().id()).containsExactly("dep", "other");
    }

    @Test
    void extendingAnUnknownIdIsAnError() throws IOException {
        sls("a.sls", "extend:\n  ghost:\n    test:\n      - x: 1\n");
        assertThatThrownBy(() -> compile("a")).hasMessageContaining("Cannot extend ID 'ghost'");
    }

    @Test
    void excludeRemovesAnSlsOrAnId() throws IOException {
        sls("a.sls", "include:\n  - b\nexclude:\n  - id: b2\nmine:\n  test.nop: []\n");
        sls("b.sls", "b1:\n  test.nop: []\nb2:\n  test.nop: []\n");
        sls("c.sls", "include:\n  - b\nexclude:\n  - sls: b\nmine:\n  test.nop: []\n");
        assertThat(ids(compile("a"))).containsExactly("b1", "mine");
        assertThat(ids(compile("c"))).containsExactly("mine");
    }

    @Test
    void aMissingSlsAndAConflictingIdAreErrors() throws IOException {
        assertThatThrownBy(() -> compile("nothere")).hasMessage("No matching sls found for 'nothere' in env 'base'");
        sls("a.sls", "include:\n  - b\nsame:\n  test.nop: []\n");
        sls("b.sls", "same:\n  test.nop: []\n");
        assertThatThrownBy(() -> compile("a")).hasMessageContaining("Detected conflicting IDs");
    }

    @Test
    void requisitesNotBuiltYetAreRefusedNotIgnored() throws IOException {
        sls("a.sls", "x:\n  test.nop:\n    - use:\n      - test: y\ny:\n  test.nop: []\n");
        assertThatThrownBy(() -> compile("a")).hasMessageContaining("'use' in ID 'x'")
                .hasMessageContaining("not supported");
        sls("b.sls", "x:\n  test.nop:\n    - require_any:\n      - test: y\ny:\n  test.nop: []\n");
        assertThatThrownBy(() -> compile("b")).hasMessageContaining("'require_any' in ID 'x'");
    }

    @Test
    void aPrereqRunsBeforeItsTargetAndAfterWhatTheTargetRequires() throws IOException {
        sls("a.sls", """
                target:
                  test.nop:
                    - require:
                      - base
                base:
                  test.nop: []
                stopper:
                  test.nop:
                    - prereq:
                      - target
                listener:
                  test.nop:
                    - listen:
                      - stopper
                """);
        ExecutionPlan plan = compile("a");
        assertThat(ids(plan)).containsExactly("base", "stopper", "target", "listener");
        assertThat(plan.listens()).singleElement().satisfies(l -> {
            assertThat(l.listener().id()).isEqualTo("listener");
            assertThat(l.watched()).extracting(StateChunk::id).containsExactly("stopper");
        });
    }

    @Test
    void relativeIncludeClimbsOneLevelPerDot() {
        assertThat(SlsCollector.resolveInclude(".conf", "web", "web/init.sls")).isEqualTo("web.conf");
        assertThat(SlsCollector.resolveInclude(".conf", "web.app", "web/app.sls")).isEqualTo("web.conf");
        assertThat(SlsCollector.resolveInclude("..db", "web.app", "web/app.sls")).isEqualTo("db");
        assertThatThrownBy(() -> SlsCollector.resolveInclude("...x", "web", "web.sls"))
                .hasMessageContaining("goes beyond top level package");
    }

    @Test
    void aFunctionlessDeclarationIsAnError() throws IOException {
        sls("a.sls", "x:\n  test:\n    - y: 1\n");
        assertThatThrownBy(() -> compile("a")).hasMessageContaining("No function declared in state 'test'");
    }

    @Test
    void plainStateKeysOfAnIdComeBeforeDottedOnesAsSaltReordersThem() throws IOException {
        // Salt 3006.8: 'other: {test.nop: [], service: [running]}' gives service order 10000 and test 10001
        sls("a.sls", "other:\n  test.nop: []\n  cmd:\n    - run\n    - name: 'true'\n");
        assertThat(ids(compile("a"))).containsExactly("other", "other");
        assertThat(compile("a").order()).extracting(StateChunk::state).containsExactly("cmd", "test");
    }

    @Test
    void requisiteTargetsAreMatchedAsGlobsOnIdOrNameAsSaltsFnmatch() throws IOException {
        sls("a.sls", """
                conf_a:
                  test.nop:
                    - name: /etc/app/a.conf
                conf_b:
                  test.nop:
                    - name: /etc/app/b.conf
                other:
                  test.nop:
                    - name: /srv/x
                reload:
                  test.nop:
                    - require:
                      - test: /etc/app/*
                    - watch:
                      - conf_?
                    - onchanges:
                      - sls: 'a*'
                """);
        ExecutionPlan plan = compile("a");
        StateChunk reload = plan.order().stream().filter(c -> c.id().equals("reload")).findFirst().orElseThrow();
        assertThat(plan.requisitesOf(reload)).extracting(e -> e.kind().key() + ":" + e.target().id()).containsExactly(
                "require:conf_a", "require:conf_b", "watch:conf_a", "watch:conf_b", "onchanges:conf_a",
                "onchanges:conf_b", "onchanges:other");
        assertThat(plan.lostRequisitesOf(reload)).isEmpty();
    }
}
