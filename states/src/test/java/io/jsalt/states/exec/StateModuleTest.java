package io.jsalt.states.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleContext;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.MasterFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The state module as a minion calls it: through the registry, with the file server a folder stands in for. */
class StateModuleTest {
    @TempDir
    Path fileRoot;
    @TempDir
    Path target;
    @TempDir
    Path cache;

    private ModuleRegistry registry;
    /** What the master compiles for a state run; null: the pillar in memory, as a context without a master has it. */
    private volatile Compile compile;
    private final List<List<Object>> compiles = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** The master's side of ModuleContext.compilePillar. */
    private interface Compile {
        Map<String, Object> pillar(Map<String, Object> override, String saltenv, String pillarenv);
    }

    /** A master file server over a folder: what RemoteMasterFiles answers, without the wire. */
    private MasterFiles folderServer() {
        return new MasterFiles() {
            @Override
            public Path cache(String saltUrl, String saltenv) {
                Path p = fileRoot.resolve(saltUrl.substring("salt://".length()));
                if (!Files.isRegularFile(p)) {
                    throw new CommandExecutionException("file " + saltUrl + " is not on the master");
                }
                return p;
            }

            @Override
            public Map<String, Object> masterOpts() {
                return Map.of("nodegroups", Map.of("webs", "web*"));
            }

            @Override
            public List<String> envs() {
                return List.of("base");
            }

            @Override
            public List<String> list(String prefix, String saltenv) {
                try (Stream<Path> all = Files.walk(fileRoot)) {
                    return all.filter(Files::isRegularFile).map(p -> fileRoot.relativize(p).toString())
                            .filter(p -> p.startsWith(prefix)).toList();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
    }

    @BeforeEach
    void registry() {
        MasterFiles files = folderServer();
        ModuleContext context = new ModuleContext() {
            public String minionId() {
                return "web1";
            }

            public Map<String, Object> grains() {
                return Map.of("id", "web1", "os", "Debian");
            }

            public Map<String, Object> opts() {
                return Map.of("id", "web1");
            }

            public Path cachedir() {
                return cache;
            }

            @Override
            public MasterFiles files() {
                return files;
            }

            @Override
            public Map<String, Object> pillar() {
                return Map.of("app", Map.of("port", 8080, "name", "shop"));
            }

            @Override
            public Map<String, Object> compilePillar(Map<String, Object> override, String saltenv, String pillarenv) {
                compiles.add(java.util.Arrays.asList(override, saltenv, pillarenv));
                Compile c = compile;
                return c == null ? pillar() : c.pillar(override, saltenv, pillarenv);
            }

            @Override
            public boolean targets(String matcher, Object expression, Map<String, Object> nodegroups) {
                return MinionTargets.of(minionId(), grains(), pillar(), nodegroups).targets(matcher, expression);
            }
        };
        registry = ModuleRegistry.builtIn(context);
    }

    private void write(String path, String text) throws IOException {
        Path p = fileRoot.resolve(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    private static Map<String, Object> kw(Object... kv) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        m.put("__kwarg__", true);
        return m;
    }

    @Test
    void theStateModuleIsFoundByTheRegistry() {
        assertThat(registry.functionNames()).contains("state.apply", "state.sls", "state.highstate", "state.show_sls",
                "state.single");
    }

    @Test
    void applyInstallsATemplateOnceAndTestModeChangesNothing() throws IOException {
        Path conf = target.resolve("app.conf");
        write("web/init.sls", """
                app_conf:
                  file.managed:
                    - name: %s
                    - source: salt://web/app.conf.j2
                    - template: jinja
                """.formatted(conf));
        write("web/app.conf.j2", "host={{ grains.id }} os={{ salt['grains.get']('os') }}\n");

        CallResult dry = registry.call("state.apply", List.of("web", kw("test", true)));
        assertThat(dry.retcode()).as(dry.toString()).isZero();
        assertThat(dry.ret().toString()).contains("result=null", "newfile=" + conf);
        assertThat(Files.exists(conf)).isFalse();

        CallResult first = registry.call("state.apply", List.of("web"));
        assertThat(first.retcode()).as(first.toString()).isZero();
        assertThat(Files.readString(conf)).isEqualTo("host=web1 os=Debian\n");
        assertThat(first.ret().toString()).contains("diff=New file");

        CallResult second = registry.call("state.sls", List.of("web"));
        assertThat(second.ret().toString()).contains("changes={}", "is in the correct state");
    }

    @Test
    void aFailedStateGivesRetcodeTwo() throws IOException {
        write("bad.sls", "nope:\n  test.fail_without_changes: []\n");
        CallResult r = registry.call("state.sls", List.of("bad"));
        assertThat(r.retcode()).isEqualTo(2);
        assertThat(r.success()).isFalse();
    }

    @Test
    void aTreeThatDoesNotCompileGivesSaltsErrorListWithRetcodeOne() throws IOException {
        write("cyc.sls", "a:\n  test.nop:\n    - require:\n      - b\nb:\n  test.nop:\n    - require:\n      - a\n");
        CallResult r = registry.call("state.sls", List.of("cyc"));
        assertThat(r.retcode()).isEqualTo(1);
        assertThat(r.ret()).isEqualTo(List.of("Recursive requisite found: test: a -> test: b -> test: a"));
        CallResult missing = registry.call("state.apply", List.of("ghost"));
        assertThat(missing.ret()).isEqualTo(List.of("No matching sls found for 'ghost' in env 'base'"));
    }

    @Test
    void highstateAppliesWhatTopGivesThisMinion() throws IOException {
        write("top.sls", "base:\n  'web*':\n    - one\n  'db*':\n    - two\n  webs:\n    - match: nodegroup\n    - one\n"
                + "  'os:Debian':\n    - match: grain\n    - three\n");
        write("three.sls", "three:\n  test.nop: []\n");
        write("one.sls", "one:\n  test.succeed_with_changes: []\n");
        write("two.sls", "two:\n  test.fail_without_changes: []\n");
        CallResult r = registry.call("state.apply", List.of());
        assertThat(r.retcode()).as(r.toString()).isZero();
        assertThat(new java.util.ArrayList<Object>(((Map<?, ?>) r.ret()).keySet())).containsExactly(
                "test_|-one_|-one_|-succeed_with_changes", "test_|-three_|-three_|-nop");
    }

    @Test
    void slsIdRunsOneIdAndWhatItRequiresOnly() throws IOException {
        write("ids.sls", "base:\n  test.succeed_with_changes: []\nwanted:\n  test.succeed_without_changes:\n    - require:\n"
                + "      - base\nother:\n  test.fail_without_changes: []\n");

        CallResult r = registry.call("state.sls_id", List.of("wanted", "ids"));
        CallResult none = registry.call("state.sls_id", List.of("absent", "ids"));

        assertThat(r.retcode()).as(r.toString()).isZero();
        assertThat(new java.util.ArrayList<Object>(((Map<?, ?>) r.ret()).keySet())).containsExactly(
                "test_|-base_|-base_|-succeed_with_changes", "test_|-wanted_|-wanted_|-succeed_without_changes");
        assertThat(none.retcode()).isEqualTo(1);
        assertThat(none.ret()).isEqualTo("ERROR: No matches for ID 'absent' found in SLS 'ids' within saltenv 'base'");
    }

    @Test
    void testAppliesInTestModeAndShowTopNamesWhatTopGivesThisMinion() throws IOException {
        Path conf = target.resolve("made.conf");
        write("top.sls", "base:\n  'web*':\n    - made\n  'db*':\n    - two\n");
        write("made.sls", "made:\n  file.managed:\n    - name: " + conf + "\n    - contents: x\n");

        CallResult dry = registry.call("state.test", List.of());
        CallResult top = registry.call("state.show_top", List.of());

        assertThat(dry.retcode()).as(dry.toString()).isZero();
        assertThat(dry.ret().toString()).contains("result=null");
        assertThat(Files.exists(conf)).isFalse();
        assertThat(top.ret()).isEqualTo(Map.of("base", List.of("made")));
    }

    /** The tree whose show_sls and show_low_sls real Salt 3006.8 answered (salt-call --local --out=json). */
    private void writeShownTree(Path marker) throws IOException {
        write("web/init.sls", """
                include:
                  - .other
                conf:
                  file.managed:
                    - name: %s
                    - contents: hi
                    - require:
                      - test: other
                run:
                  cmd.run:
                    - names:
                      - echo a
                      - echo b
                    - onchanges:
                      - file: conf
                """.formatted(marker));
        write("web/other.sls", """
                other:
                  test.nop:
                    - require_in:
                      - cmd: run
                  cmd:
                    - run
                    - name: 'true'
                """);
    }

    @Test
    void showSlsGivesSaltsHighDataWithoutRunningAnything() throws IOException {
        Path marker = target.resolve("never");
        writeShownTree(marker);

        CallResult r = registry.call("state.show_sls", List.of("web"));

        assertThat(r.retcode()).as(r.toString()).isZero();
        Map<?, ?> high = (Map<?, ?>) r.ret();
        // Salt 3006.8: {"file": [{"name": ...}, {"contents": "hi"}, {"require": [{"test": "other"}]}, "managed",
        // {"order": 10002}], "__sls__": "web", "__env__": "base"}
        assertThat(high.get("conf")).isEqualTo(Map.of("file", List.of(Map.of("name", marker.toString()),
                Map.of("contents", "hi"), Map.of("require", List.of(Map.of("test", "other"))), "managed",
                Map.of("order", 10002)), "__sls__", "web", "__env__", "base"));
        assertThat(high.get("other")).isEqualTo(Map.of("cmd", List.of("run", Map.of("name", "true"), Map.of("order", 10000)),
                "test", List.of(Map.of("require_in", List.of(Map.of("cmd", "run"))), "nop", Map.of("order", 10001)),
                "__sls__", "web.other", "__env__", "base"));
        assertThat(((Map<?, ?>) high.get("run")).get("cmd")).isEqualTo(List.of(Map.of("names", List.of("echo a", "echo b")),
                Map.of("onchanges", List.of(Map.of("file", "conf"))), "run", Map.of("order", 10003)));
        assertThat(Files.exists(marker)).isFalse();
    }

    @Test
    void showLowSlsGivesSaltsLowChunksInDefinitionOrder() throws IOException {
        Path marker = target.resolve("never");
        writeShownTree(marker);

        CallResult r = registry.call("state.show_low_sls", List.of("web"));

        assertThat(r.retcode()).as(r.toString()).isZero();
        List<?> low = (List<?>) r.ret();
        assertThat(low).extracting(c -> ((Map<?, ?>) c).get("__id__") + ":" + ((Map<?, ?>) c).get("name") + ":"
                + ((Map<?, ?>) c).get("order")).containsExactly("other:true:10000", "other:other:10001",
                "conf:" + marker + ":10002", "run:echo a:10003.0001", "run:echo b:10003.0002");
        assertThat(low.get(1)).isEqualTo(Map.of("state", "test", "name", "other", "__sls__", "web.other", "__env__", "base",
                "__id__", "other", "require_in", List.of(Map.of("cmd", "run")), "order", 10001, "fun", "nop"));
        assertThat(new java.util.ArrayList<Object>(((Map<?, ?>) low.get(2)).keySet())).startsWith("state", "name",
                "__sls__", "__env__", "__id__");
        assertThat(Files.exists(marker)).isFalse();
    }

    @Test
    void showHighstateGivesTheHighDataOfWhatTopGivesThisMinionAndAnErrorListForABadTree() throws IOException {
        write("top.sls", "base:\n  'web*':\n    - one\n  'db*':\n    - two\n");
        write("one.sls", "one:\n  test.nop: []\n");
        write("two.sls", "two:\n  test.nop: []\n");

        CallResult r = registry.call("state.show_highstate", List.of());
        assertThat(r.ret()).isEqualTo(Map.of("one", Map.of("test", List.of("nop", Map.of("order", 10000)),
                "__sls__", "one", "__env__", "base")));

        write("one.sls", "one:\n  test.nop:\n    - require:\n      - one_more\n    - require_in:\n      - nowhere\n");
        CallResult bad = registry.call("state.show_highstate", List.of());
        assertThat(bad.retcode()).isEqualTo(1);
        assertThat(bad.ret().toString()).contains("Referenced state does not exist for requisite [require_in: nowhere]");
    }

    @Test
    void aSecondRunIsRefusedWhileOneRunsUnlessQueuedOrConcurrent() throws Exception {
        Path release = target.resolve("release");
        write("slow.sls", "wait:\n  cmd.run:\n    - name: while [ ! -f " + release + " ]; do sleep 0.05; done\n");
        write("quick.sls", "quick:\n  test.nop: []\n");
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            java.util.concurrent.Future<CallResult> slow = pool.submit(() -> registry.call("state.sls", List.of("slow")));
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                    .until(() -> StateRunGuard.MINION.tryEnter("probe", "").map(turn -> {
                        turn.close();
                        return false;
                    }).orElse(true));
            CallResult refused = registry.call("state.sls", List.of("quick"));
            assertThat(refused.retcode()).isEqualTo(1);
            assertThat(registry.call("state.running", List.of()).ret()).isEqualTo(refused.ret());
            assertThat((List<?>) refused.ret()).singleElement().asString()
                    .startsWith("The function \"state.sls\" is running as PID " + ProcessHandle.current().pid());
            CallResult concurrent = registry.call("state.sls", List.of("quick", kw("concurrent", true)));
            assertThat(concurrent.retcode()).as(concurrent.toString()).isZero();
            java.util.concurrent.Future<CallResult> queued = pool.submit(() ->
                    registry.call("state.sls", List.of("quick", kw("queue", true))));
            assertThat(queued.isDone()).isFalse();
            Files.writeString(release, "");
            assertThat(slow.get(30, java.util.concurrent.TimeUnit.SECONDS).retcode()).isZero();
            assertThat(queued.get(30, java.util.concurrent.TimeUnit.SECONDS).retcode()).isZero();
            assertThat(registry.call("state.running", List.of()).ret()).isEqualTo(List.of());
        } finally {
            Files.writeString(release, "");
            pool.shutdownNow();
        }
    }

    @Test
    void aTemplateCallingAMissingFunctionFailsTheRunWithItsNameAndLine() throws IOException {
        write("m.sls", "x:\n  test.nop:\n    - v: {{ salt['nope.nothing']() }}\n");
        CallResult r = registry.call("state.sls", List.of("m"));
        assertThat(r.retcode()).isEqualTo(1);
        assertThat((List<?>) r.ret()).singleElement().asString()
                .startsWith("Jinja error in m.sls: line 3: ").contains("nope.nothing");
    }

    @Test
    void keywordsNotBuiltYetAreRefusedByName() throws IOException {
        write("q.sls", "q:\n  test.nop: []\n");
        CallResult r = registry.call("state.apply", List.of("q", kw("exclude", List.of("x"))));
        assertThat(r.retcode()).isEqualTo(1);
        assertThat(r.ret()).isEqualTo("ERROR: state.apply: the keyword 'exclude' is not supported by jsalt yet");
    }

    @Test
    void templatesSeeTheMinionsPillarWithARunsOverrideMergedOnTop() throws IOException {
        Path conf = target.resolve("app.conf");
        write("app.sls", "conf:\n  file.managed:\n    - name: " + conf + "\n"
                + "    - contents: \"{{ pillar['app']['name'] }}:{{ pillar.app.port }}:{{ pillar.get('extra', 'none') }}\"\n");

        assertThat(registry.call("state.apply", List.of("app")).retcode()).isZero();
        assertThat(Files.readString(conf)).isEqualTo("shop:8080:none\n");

        CallResult r = registry.call("state.apply", List.of("app", kw("pillar", Map.of("app", Map.of("port", 9090), "extra", "x"))));
        assertThat(r.retcode()).isZero();
        assertThat(Files.readString(conf)).isEqualTo("shop:9090:x\n");
    }

    @Test
    void everyRunRendersWithThePillarTheMasterCompilesForItNotTheOneInMemory() throws IOException {
        Path conf = target.resolve("app.conf");
        write("app.sls", "conf:\n  file.managed:\n    - name: " + conf + "\n"
                + "    - contents: \"{{ pillar['app']['name'] }}:{{ pillar.app.port }}:{{ pillar.get('extra', 'none') }}\"\n");
        compile = (override, saltenv, pillarenv) -> Map.of("app", Map.of("port", 7070, "name", "fresh"), "extra", "master");

        assertThat(registry.call("state.sls", List.of("app")).retcode()).isZero();
        assertThat(Files.readString(conf)).isEqualTo("fresh:7070:master\n");
        assertThat(compiles).containsExactly(java.util.Arrays.asList(Map.of(), null, null));

        // the override goes to the master with the run's saltenv (Salt's pillar_override), and is merged on top again
        CallResult r = registry.call("state.apply", List.of("app", kw("pillar", Map.of("app", Map.of("port", 9090)), "saltenv", "base")));
        assertThat(r.retcode()).as(r.toString()).isZero();
        assertThat(Files.readString(conf)).isEqualTo("fresh:9090:master\n");
        assertThat(compiles.get(1)).isEqualTo(java.util.Arrays.asList(Map.of("app", Map.of("port", 9090)), "base", null));

        // pillarenv= goes to the master too (Salt's opts["pillarenv"] for the run's _pillar request)
        assertThat(registry.call("state.sls", List.of("app", kw("pillarenv", "dev"))).retcode()).isZero();
        assertThat(compiles.get(2)).isEqualTo(java.util.Arrays.asList(Map.of(), null, "dev"));
        compiles.remove(2);

        assertThat(registry.call("state.show_sls", List.of("app")).retcode()).isZero();
        assertThat(registry.call("state.show_top", List.of()).retcode()).isZero();
        assertThat(compiles).hasSize(4);
    }

    @Test
    void aRunWhoseMasterSendsNoPillarAppliesNothingAndSaysWhy() throws IOException {
        Path conf = target.resolve("app.conf");
        write("app.sls", "conf:\n  file.managed:\n    - name: " + conf + "\n    - contents: \"{{ pillar.app.port }}\"\n");
        write("top.sls", "base:\n  '*':\n    - app\n");
        compile = (override, saltenv, pillarenv) -> {
            throw new CommandExecutionException("no pillar from the master for this state run (3 tries): no answer within 1000 ms");
        };

        for (List<Object> call : List.<List<Object>>of(List.of("state.apply", List.of("app")), List.of("state.apply", List.of()),
                List.of("state.sls", List.of("app")), List.of("state.highstate", List.of()),
                List.of("state.sls_id", List.of("conf", "app")), List.of("state.test", List.of("app")),
                List.of("state.single", List.of("file.managed", kw("name", conf.toString(), "contents", "x"))),
                List.of("state.show_sls", List.of("app")), List.of("state.show_highstate", List.of()),
                List.of("state.show_low_sls", List.of("app")), List.of("state.show_top", List.of()))) {
            @SuppressWarnings("unchecked")
            CallResult r = registry.call((String) call.get(0), (List<Object>) call.get(1));
            assertThat(r.retcode()).as(call.get(0) + ": " + r).isEqualTo(1);
            assertThat(r.ret()).as(call.get(0).toString()).isEqualTo(List.of("The state run did not start: no pillar from the "
                    + "master for this state run (3 tries): no answer within 1000 ms"));
        }
        assertThat(Files.exists(conf)).isFalse();
        assertThat(StateRunGuard.MINION.running()).isEmpty();
    }

    @Test
    void aPillarThatDidNotRenderWholeStopsTheRunAsSaltsDoesUnlessForced() throws IOException {
        Path conf = target.resolve("app.conf");
        write("app.sls", "conf:\n  file.managed:\n    - name: " + conf + "\n"
                + "    - contents: \"{{ pillar.get('app', {}).get('port', 80) }}\"\n");
        write("top.sls", "base:\n  '*':\n    - app\n");
        List<String> errors = List.of("Rendering SLS 'app' failed, render error:\nmapping values are not allowed here; line 2");
        compile = (override, saltenv, pillarenv) -> Map.of("_errors", errors);

        for (String fun : List.of("state.apply", "state.sls", "state.test")) {
            CallResult r = registry.call(fun, List.of("app"));
            assertThat(r.retcode()).as(fun + ": " + r).isEqualTo(5);
            assertThat(r.ret()).as(fun).isEqualTo(List.of("Pillar failed to render with the following messages:", errors.get(0)));
        }
        assertThat(registry.call("state.highstate", List.of()).retcode()).isEqualTo(5);
        assertThat(registry.call("state.sls_id", List.of("conf", "app")).retcode()).isEqualTo(5);
        CallResult shown = registry.call("state.show_sls", List.of("app"));
        assertThat(shown.retcode()).isEqualTo(5);
        assertThat(shown.ret()).isEqualTo("ERROR: Pillar failed to render. Additional info follows:\n\n- " + errors.get(0));
        assertThat(registry.call("state.show_top", List.of()).retcode()).isEqualTo(5);
        assertThat(Files.exists(conf)).isFalse();

        // force=True runs it anyway, as in Salt; state.single does not look at the pillar's errors
        CallResult forced = registry.call("state.sls", List.of("app", kw("force", true)));
        assertThat(forced.retcode()).as(forced.toString()).isZero();
        assertThat(Files.readString(conf)).isEqualTo("80\n");
        Path single = target.resolve("single.conf");
        assertThat(registry.call("state.single", List.of("file.managed", kw("name", single.toString(), "contents", "x"))).retcode())
                .isZero();
        assertThat(Files.exists(single)).isTrue();
    }

    @Test
    void aPillarOverrideThatIsNotADictionaryIsRefused() throws IOException {
        write("q.sls", "q:\n  test.nop: []\n");
        CallResult r = registry.call("state.apply", List.of("q", kw("pillar", "k=v")));
        assertThat(r.retcode()).isEqualTo(1);
        assertThat(String.valueOf(r.ret())).contains("Pillar data must be formatted as a dictionary");
    }

    @Test
    void jidTimeIsSaltsFormat() {
        assertThat(StateRunGuard.jidTime("20261125000102123456")).isEqualTo("2026, Nov 25 00:01:02.123456");
        assertThat(StateRunGuard.jidTime("")).isEmpty();
    }

    @Test
    void singleRunsOneStateFunction() {
        Path file = target.resolve("single");
        CallResult r = registry.call("state.single", List.of("file.managed", kw("name", file.toString(), "contents", "one")));
        assertThat(r.retcode()).as(r.toString()).isZero();
        assertThat(new java.util.ArrayList<Object>(((Map<?, ?>) r.ret()).keySet())).containsExactly("file_|-" + file + "_|-" + file + "_|-managed");
    }
}
