package io.jsalt.states.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.states.StatesException;
import io.jsalt.states.compile.ExecutionPlan;
import io.jsalt.states.compile.SlsCompiler;
import io.jsalt.states.compile.StateChunk;
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

/** State top files as Salt merges and matches them, with the minion's real matcher. */
class TopFileTest {
    @TempDir
    Path roots;

    private final TopFile.Targeting web1 = MinionTargets.of("web1",
            Map.of("os", "Debian", "roles", List.of("web", "cache"), "ipv4", List.of("10.1.2.3", "127.0.0.1")),
            Map.of("tier", "front"), Map.of("webs", "web*"));

    private void write(String env, String path, String text) throws IOException {
        Path file = roots.resolve(env).resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    private FolderFiles files(String... envs) throws IOException {
        Map<String, Path> m = new java.util.LinkedHashMap<>();
        for (String env : envs) {
            m.put(env, Files.createDirectories(roots.resolve(env)));
        }
        return new FolderFiles(m);
    }

    private static RenderContext context() {
        return new RenderContext(Map.of("os", "Debian"), Map.of(), Map.of(), "base", "", "", FunctionCaller.NONE);
    }

    private Map<String, List<String>> matches(FolderFiles files, String onlySaltenv) {
        return TopFile.matches(files, new SlsRenderer(files), context(), onlySaltenv, web1);
    }

    @Test
    void everyMatcherOfSaltsTopFilesIsJudgedByTheMinionsOwnMatcher() throws IOException {
        write("base", "top.sls", """
                base:
                  'G@os:Debian and web*':           # compound, the default
                    - compound
                  'roles:cache':
                    - match: grain
                    - grain
                  'os:Deb.*':
                    - match: grain_pcre
                    - grain_pcre
                  '^web\\d$':
                    - match: pcre
                    - pcre
                  'db1,web1':
                    - match: list
                    - list
                  'tier:front':
                    - match: pillar
                    - pillar
                  'webs':
                    - match: nodegroup
                    - nodegroup
                  '10.1.0.0/16':
                    - match: ipcidr
                    - ipcidr
                  'db*':
                    - nothere
                  'os:RedHat':
                    - match: grain
                    - nothere_either
                  'web1':
                    - match: glob
                    - compound
                """);
        assertThat(matches(files("base"), null)).isEqualTo(Map.of("base",
                List.of("compound", "grain", "grain_pcre", "pcre", "list", "pillar", "nodegroup", "ipcidr")));
    }

    @Test
    void aTargetThatCannotBeMatchedIsAClearErrorNamingIt() throws IOException {
        write("base", "top.sls", "base:\n  'x':\n    - match: sorcery\n    - a\n");
        assertThatThrownBy(() -> matches(files("base"), null)).isInstanceOf(StatesException.class)
                .hasMessageContaining("target 'x' (match: sorcery) cannot be matched");
    }

    @Test
    void everySaltenvsTopFileAddsItsOwnSectionUnlessBaseDefinedItAsSaltsMergeStrategy() throws IOException {
        write("base", "top.sls", "base:\n  '*':\n    - common\nqa:\n  '*':\n    - from_base\n");
        write("dev", "top.sls", "dev:\n  'web*':\n    - app\nbase:\n  '*':\n    - ignored_other_section\n");
        write("qa", "top.sls", "qa:\n  '*':\n    - ignored_base_defined_qa\n");
        write("prod", "top.sls", "prod:\n  'db*':\n    - db\n");

        assertThat(matches(files("base", "dev", "prod", "qa"), null)).isEqualTo(Map.of(
                "base", List.of("common"), "dev", List.of("app"), "qa", List.of("from_base")));
        assertThat(matches(files("base", "dev", "prod", "qa"), "dev")).as("a saltenv asked for: its own top file only")
                .isEqualTo(Map.of("dev", List.of("app")));
    }

    @Test
    void aHighstateCompilesEachSaltenvsSlsFromItsOwnSaltenv() throws IOException {
        write("base", "top.sls", "base:\n  '*':\n    - common\n");
        write("dev", "top.sls", "dev:\n  '*':\n    - app\n");
        write("base", "common.sls", "common:\n  test.nop:\n    - name: {{ saltenv }}\n");
        write("dev", "app.sls", "include:\n  - .part\napp:\n  test.nop:\n    - name: {{ saltenv }}\n    - require:\n      - common\n");
        write("dev", "part.sls", "part:\n  test.nop: []\n");
        FolderFiles files = files("base", "dev");

        ExecutionPlan plan = new SlsCompiler(files, new SlsRenderer(files)).compile(matches(files, null), context());

        assertThat(plan.order()).extracting(c -> c.id() + "@" + c.saltenv() + "=" + c.name())
                .containsExactly("common@base=base", "part@dev=part", "app@dev=dev");
        assertThat(plan.order()).extracting(StateChunk::sls).containsExactly("common", "part", "app");
    }

    @Test
    void anSlsMissingFromItsSaltenvNamesThatSaltenv() throws IOException {
        write("dev", "top.sls", "dev:\n  '*':\n    - ghost\n");
        FolderFiles files = files("base", "dev");
        assertThatThrownBy(() -> new SlsCompiler(files, new SlsRenderer(files)).compile(matches(files, null), context()))
                .hasMessage("No matching sls found for 'ghost' in env 'dev'");
    }
}
