package io.jsalt.states.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.states.TestCalls;
import io.jsalt.states.builtin.BuiltinStates;
import io.jsalt.states.compile.ExecutionPlan;
import io.jsalt.states.compile.SlsCompiler;
import io.jsalt.states.compile.StateCompileException;
import io.jsalt.states.files.FolderFiles;
import io.jsalt.states.render.FunctionCaller;
import io.jsalt.states.render.RenderContext;
import io.jsalt.states.render.SlsRenderer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateRunnerTest {
    @TempDir
    Path root;

    private Map<String, Object> run(String sls, boolean test) throws IOException {
        Files.writeString(root.resolve("a.sls"), sls);
        FolderFiles files = FolderFiles.base(root);
        SlsRenderer renderer = new SlsRenderer(files);
        FunctionCaller salt = TestCalls.realModules();
        RenderContext context = TestCalls.context(salt);
        ExecutionPlan plan = new SlsCompiler(files, renderer).compile(List.of("a"), context);
        return new StateRunner(BuiltinStates.all(), salt, files, renderer.jinja()).run(plan, test, context);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> entry(Map<String, Object> ret, String tag) {
        assertThat(ret).containsKey(tag);
        return (Map<String, Object>) ret.get(tag);
    }

    @Test
    void eachStateReturnsSaltsKeysInRunOrder() throws IOException {
        Map<String, Object> ret = run("""
                second:
                  test.nop:
                    - require:
                      - test: first
                first:
                  test.succeed_with_changes: []
                """, false);
        assertThat(new ArrayList<>(ret.keySet())).containsExactly("test_|-first_|-first_|-succeed_with_changes",
                "test_|-second_|-second_|-nop");
        Map<String, Object> first = entry(ret, "test_|-first_|-first_|-succeed_with_changes");
        assertThat(first).containsOnlyKeys("name", "changes", "result", "comment", "__sls__", "__run_num__",
                "start_time", "duration", "__id__");
        assertThat(first).containsEntry("__run_num__", 0).containsEntry("__sls__", "a").containsEntry("__id__", "first")
                .containsEntry("result", true);
        assertThat((String) first.get("start_time")).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{6}");
        assertThat(first.get("duration")).isInstanceOf(Double.class);
        assertThat(entry(ret, "test_|-second_|-second_|-nop")).containsEntry("__run_num__", 1);
        assertThat(StateRunner.failed(ret)).isFalse();
    }

    @Test
    void aFailedRequirementFailsTheStatesThatNeedIt() throws IOException {
        Map<String, Object> ret = run("""
                broken:
                  test.fail_without_changes: []
                needs:
                  test.nop:
                    - require:
                      - broken
                """, false);
        assertThat(entry(ret, "test_|-needs_|-needs_|-nop")).containsEntry("result", false)
                .containsEntry("comment", "One or more requisite failed: a.broken");
        assertThat(StateRunner.failed(ret)).isTrue();
    }

    @Test
    void aStateWhoseRequisitesNameNothingFailsAloneWithSaltsCommentAndTheOthersRun() throws IOException {
        // what salt-call --local state.apply printed for the same tree (Salt 3006.8)
        Map<String, Object> ret = run("""
                first:
                  test.succeed_without_changes: []
                needs missing:
                  test.succeed_without_changes:
                    - require:
                      - test: does not exist
                      - nothing here
                    - onfail:
                      - cmd: gone
                after:
                  test.succeed_without_changes:
                    - require:
                      - needs missing
                """, false);

        assertThat(entry(ret, "test_|-first_|-first_|-succeed_without_changes")).containsEntry("result", true);
        assertThat(entry(ret, "test_|-needs missing_|-needs missing_|-succeed_without_changes")).containsEntry("result", false)
                .containsEntry("changes", Map.of()).containsEntry("comment", "The following requisites were not found:\n"
                        + "                   require:\n                       test: does not exist\n"
                        + "                       id: nothing here\n                   onfail:\n                       cmd: gone\n");
        assertThat(entry(ret, "test_|-after_|-after_|-succeed_without_changes")).containsEntry("result", false)
                .containsEntry("comment", "One or more requisite failed: a.needs missing");
        assertThat(StateRunner.failed(ret)).isTrue();
    }

    @Test
    void onchangesRunsOnlyAfterAChange() throws IOException {
        Map<String, Object> ret = run("""
                changed:
                  test.succeed_with_changes: []
                unchanged:
                  test.nop: []
                afterChange:
                  test.succeed_with_changes:
                    - onchanges:
                      - test: changed
                afterNothing:
                  test.succeed_with_changes:
                    - onchanges:
                      - test: unchanged
                """, false);
        assertThat(entry(ret, "test_|-afterChange_|-afterChange_|-succeed_with_changes").get("changes")).isNotEqualTo(Map.of());
        assertThat(entry(ret, "test_|-afterNothing_|-afterNothing_|-succeed_with_changes"))
                .containsEntry("changes", Map.of()).containsEntry("result", true)
                .containsEntry("comment", "State was not run because none of the onchanges reqs changed");
    }

    @Test
    void onfailRunsOnlyAfterAFailure() throws IOException {
        Map<String, Object> ret = run("""
                bad:
                  test.fail_without_changes: []
                good:
                  test.nop: []
                rescue:
                  test.succeed_with_changes:
                    - onfail:
                      - test: bad
                idle:
                  test.succeed_with_changes:
                    - onfail:
                      - test: good
                """, false);
        assertThat(entry(ret, "test_|-rescue_|-rescue_|-succeed_with_changes")).containsEntry("result", true)
                .containsEntry("comment", "Success!");
        assertThat(entry(ret, "test_|-idle_|-idle_|-succeed_with_changes"))
                .containsEntry("comment", "State was not run because onfail req did not change");
    }

    @Test
    void watchRerunsACommandWhenItsTargetChangedEvenIfUnlessSaysOtherwise() throws IOException {
        Path marker = root.resolve("watched");
        Map<String, Object> ret = run("""
                changed:
                  test.succeed_with_changes: []
                restart:
                  cmd.run:
                    - name: touch %s
                    - creates: %s
                    - watch:
                      - test: changed
                """.formatted(marker, root.resolve("a.sls")), false);
        // creates names an existing file, so a plain run would skip; mod_watch still checks creates as Salt does
        assertThat(entry(ret, "cmd_|-restart_|-touch " + marker + "_|-run").get("comment"))
                .isEqualTo(root.resolve("a.sls") + " exists");
        Map<String, Object> again = run("""
                changed:
                  test.succeed_with_changes: []
                restart:
                  cmd.run:
                    - name: touch %s
                    - watch:
                      - test: changed
                """.formatted(marker), false);
        assertThat(entry(again, "cmd_|-restart_|-touch " + marker + "_|-run")).containsEntry("result", true);
        assertThat(Files.exists(marker)).isTrue();
    }

    @Test
    @SuppressWarnings("unchecked")
    void cmdWaitAndWaitScriptRunOnlyWhenAWatchedStateChanged() throws IOException {
        Path idle = root.resolve("idle-ran");
        Files.writeString(root.resolve("s.sh"), "#!/bin/sh\necho script ran\n");
        String tree = """
                changed:
                  test.succeed_with_changes: []
                quiet:
                  test.nop: []
                w:
                  cmd.wait:
                    - name: echo d
                    - watch:
                      - test: changed
                ws:
                  cmd.wait_script:
                    - source: salt://s.sh
                    - watch:
                      - test: changed
                idle:
                  cmd.wait:
                    - name: touch %s
                    - watch:
                      - test: quiet
                """.formatted(idle);
        Map<String, Object> ret = run(tree, false);
        assertThat(entry(ret, "cmd_|-w_|-echo d_|-wait")).containsEntry("result", true)
                .containsEntry("comment", "Command \"echo d\" run");
        assertThat((Map<String, Object>) entry(ret, "cmd_|-w_|-echo d_|-wait").get("changes")).containsEntry("stdout", "d");
        assertThat(entry(ret, "cmd_|-ws_|-ws_|-wait_script")).containsEntry("comment", "Command 'ws' run");
        assertThat((Map<String, Object>) entry(ret, "cmd_|-ws_|-ws_|-wait_script").get("changes")).containsEntry("stdout", "script ran");
        assertThat(entry(ret, "cmd_|-idle_|-touch " + idle + "_|-wait")).containsEntry("result", true)
                .containsEntry("comment", "").containsEntry("changes", Map.of());
        assertThat(Files.exists(idle)).isFalse();

        // as salt-call --local (Salt 3006.8) in test mode: the predicted change fires the watch, nothing runs
        Map<String, Object> dry = run(tree, true);
        assertThat(entry(dry, "cmd_|-w_|-echo d_|-wait")).containsEntry("result", null)
                .containsEntry("comment", "Command \"echo d\" would have been executed")
                .containsEntry("changes", Map.of("cmd", "echo d"));
        assertThat(entry(dry, "cmd_|-ws_|-ws_|-wait_script")).containsEntry("result", null)
                .containsEntry("comment", "Command 'ws' would have been executed");
    }

    @Test
    void failhardStopsTheRunAfterItsStateFailsAsSaltDoes() throws IOException {
        // salt-call --local state.apply (Salt 3006.8): the return holds the states run so far, nothing after
        Map<String, Object> ret = run("""
                first:
                  test.succeed_with_changes: []
                breaks:
                  test.fail_without_changes:
                    - failhard: True
                after:
                  test.nop: []
                """, false);
        assertThat(new ArrayList<>(ret.keySet())).containsExactly("test_|-first_|-first_|-succeed_with_changes",
                "test_|-breaks_|-breaks_|-fail_without_changes");
        assertThat(StateRunner.failed(ret)).isTrue();

        // a failhard state run early for a requisite stops the run there too
        Map<String, Object> required = run("""
                needs:
                  test.nop:
                    - require:
                      - test: req_fails
                req_fails:
                  test.fail_without_changes:
                    - failhard: True
                other:
                  test.nop: []
                """, false);
        assertThat(required.keySet()).containsExactly("test_|-req_fails_|-req_fails_|-fail_without_changes");

        // test mode never stops; a failhard state that succeeds stops nothing
        assertThat(run("x:\n  test.fail_without_changes:\n    - failhard: True\ny:\n  test.nop: []\n", true)).hasSize(2);
        assertThat(run("x:\n  test.nop:\n    - failhard: True\ny:\n  test.nop: []\n", false)).hasSize(2);
    }

    @Test
    void testModeReportsPredictionsWithResultNone() throws IOException {
        Path marker = root.resolve("never");
        Map<String, Object> ret = run("""
                changed:
                  test.succeed_with_changes: []
                cmd:
                  cmd.run:
                    - name: touch %s
                    - onchanges:
                      - test: changed
                """.formatted(marker), true);
        assertThat(entry(ret, "test_|-changed_|-changed_|-succeed_with_changes")).containsEntry("result", null);
        assertThat(entry(ret, "cmd_|-cmd_|-touch " + marker + "_|-run")).containsEntry("result", null);
        assertThat(Files.exists(marker)).isFalse();
        assertThat(StateRunner.failed(ret)).isFalse();
    }

    @Test
    void aKilledRunStopsBeforeTheNextState() throws IOException {
        Files.writeString(root.resolve("a.sls"), "first:\n  test.nop: []\nsecond:\n  test.succeed_with_changes: []\n");
        FolderFiles files = FolderFiles.base(root);
        SlsRenderer renderer = new SlsRenderer(files);
        RenderContext context = TestCalls.context(FunctionCaller.NONE);
        ExecutionPlan plan = new SlsCompiler(files, renderer).compile(List.of("a"), context);
        List<String> ran = new ArrayList<>();
        StateFunctions functions = new StateFunctions()
                .add("test.nop", call -> {
                    ran.add("nop");
                    Thread.currentThread().interrupt(); // what saltutil.kill_job does to the job's thread
                    return StateResult.ok("");
                })
                .add("test.succeed_with_changes", call -> {
                    ran.add("second");
                    return StateResult.ok("");
                });
        try {
            assertThatThrownBy(() -> new StateRunner(functions, FunctionCaller.NONE, files, renderer.jinja())
                    .run(plan, false, context)).hasMessageContaining("killed before test_|-second");
        } finally {
            Thread.interrupted();
        }
        assertThat(ran).containsExactly("nop");
    }

    @Test
    void anUnknownJinjaFilterIsRefused() {
        assertThatThrownBy(() -> run("x:\n  test.nop:\n    - v: {{ 'a'|no_such_filter }}\n", false))
                .hasMessageContaining("no_such_filter").hasMessageContaining("a.sls: line 3");
    }

    @Test
    void anUnknownStateFunctionStopsTheRunBeforeAnythingRuns() {
        Path marker = root.resolve("never");
        assertThatThrownBy(() -> run("first:\n  cmd.run:\n    - name: touch " + marker + "\nx:\n  pkg.frobnicated: []\n", false))
                .isInstanceOf(StateCompileException.class)
                .hasMessage("State 'pkg.frobnicated' was not found in SLS 'a'");
        assertThat(Files.exists(marker)).isFalse();
    }

    @Test
    void anExceptionInAStateFailsThatStateOnly() throws IOException {
        Map<String, Object> ret = run("rel:\n  file.managed:\n    - name: relative/path\n    - contents: x\nok:\n  test.nop: []\n", false);
        assertThat(entry(ret, "file_|-rel_|-relative/path_|-managed")).containsEntry("result", false)
                .containsEntry("comment", "An exception occurred in this state: Specified file relative/path is not an absolute path");
        assertThat(entry(ret, "test_|-ok_|-ok_|-nop")).containsEntry("result", true);
    }

    private static List<String> byRunNum(Map<String, Object> ret) {
        List<String> tags = new ArrayList<>(ret.keySet());
        tags.sort(java.util.Comparator.comparingInt(t -> (Integer) entry(ret, t).get("__run_num__")));
        return tags;
    }

    /** The tree real Salt 3006.8 ran (salt-call --local state.sls p): run order, results and comments as it gave them. */
    private String prereqAndListenTree(Path conf, String contents) {
        return """
                stop_first:
                  cmd.run:
                    - name: echo stopping
                    - prereq:
                      - file: conf
                conf:
                  file.managed:
                    - name: %s
                    - contents: %s
                not_needed:
                  cmd.run:
                    - name: echo never
                    - prereq:
                      - test: quiet
                quiet:
                  test.nop: []
                listener:
                  cmd.run:
                    - name: echo listener
                    - listen:
                      - file: conf
                listener_in:
                  cmd.run:
                    - name: echo li
                listen_src:
                  test.succeed_with_changes:
                    - listen_in:
                      - cmd: listener_in
                """.formatted(conf, contents);
    }

    @Test
    void prereqRunsFirstOnlyIfItsTargetWouldChangeAndListenRunsModWatchAtTheEnd() throws IOException {
        Path conf = root.resolve("p.conf");

        Map<String, Object> first = run(prereqAndListenTree(conf, "one"), false);

        assertThat(byRunNum(first)).containsExactly("cmd_|-stop_first_|-echo stopping_|-run",
                "file_|-conf_|-" + conf + "_|-managed", "cmd_|-not_needed_|-echo never_|-run", "test_|-quiet_|-quiet_|-nop",
                "cmd_|-listener_|-echo listener_|-run", "cmd_|-listener_in_|-echo li_|-run",
                "test_|-listen_src_|-listen_src_|-succeed_with_changes",
                "cmd_|-listener_listener_|-echo listener_|-mod_watch", "cmd_|-listener_listener_in_|-echo li_|-mod_watch");
        assertThat(entry(first, "cmd_|-stop_first_|-echo stopping_|-run")).containsEntry("result", true)
                .extracting(e -> ((Map<?, ?>) e.get("changes")).get("stdout")).isEqualTo("stopping");
        assertThat(entry(first, "cmd_|-not_needed_|-echo never_|-run")).containsEntry("result", true)
                .containsEntry("comment", "No changes detected").containsEntry("changes", Map.of());
        assertThat(entry(first, "cmd_|-listener_listener_|-echo listener_|-mod_watch")).containsEntry("__id__", "listener_listener")
                .containsEntry("result", true);
        assertThat(Files.readString(conf)).isEqualTo("one\n");

        Map<String, Object> second = run(prereqAndListenTree(conf, "one"), false);

        assertThat(entry(second, "cmd_|-stop_first_|-echo stopping_|-run")).containsEntry("comment", "No changes detected")
                .containsEntry("changes", Map.of());
        assertThat(second).doesNotContainKey("cmd_|-listener_listener_|-echo listener_|-mod_watch")
                .containsKey("cmd_|-listener_listener_in_|-echo li_|-mod_watch");

        Map<String, Object> dry = run(prereqAndListenTree(conf, "two"), true);

        assertThat(entry(dry, "cmd_|-stop_first_|-echo stopping_|-run")).containsEntry("result", null)
                .containsEntry("comment", "Command \"echo stopping\" would have been executed");
        assertThat(entry(dry, "cmd_|-listener_listener_|-echo listener_|-mod_watch")).containsEntry("result", null);
        assertThat(Files.readString(conf)).isEqualTo("one\n");
    }

    @Test
    void aFailedPrereqKeepsItsTargetFromRunningAndMissingTargetsAreSaltsErrors() throws IOException {
        Path conf = root.resolve("p.conf");
        Map<String, Object> ret = run("""
                pre_fails:
                  cmd.run:
                    - name: 'false'
                    - prereq:
                      - file: conf
                conf:
                  file.managed:
                    - name: %s
                    - contents: three
                missing:
                  cmd.run:
                    - name: echo x
                    - prereq:
                      - test: nowhere
                    - listen:
                      - test: nowhere2
                """.formatted(conf), false);

        assertThat(entry(ret, "cmd_|-pre_fails_|-false_|-run")).containsEntry("result", false);
        Map<String, Object> skipped = entry(ret, "file_|-conf_|-" + conf + "_|-managed");
        assertThat(skipped).containsEntry("result", null).containsEntry("changes", Map.of()).containsEntry("__run_num__", 1);
        assertThat(Files.exists(conf)).as("the prereq'd file is not written").isFalse();
        assertThat(entry(ret, "cmd_|-missing_|-echo x_|-run")).containsEntry("result", false).containsEntry("comment",
                "The following requisites were not found:\n                   prereq:\n                       test: nowhere\n");
        assertThat(entry(ret, "Listen_Error_|-listen_nowhere2_|-listen_test_|-Listen_Error")).isEqualTo(Map.of(
                "comment", "Referenced state test: nowhere2 does not exist", "name", "listen_test:nowhere2",
                "result", false, "changes", Map.of(), "__run_num__", 3));
        assertThat(StateRunner.failed(ret)).isTrue();
    }
}
