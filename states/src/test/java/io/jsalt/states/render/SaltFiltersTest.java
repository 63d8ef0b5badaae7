package io.jsalt.states.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.states.TestCalls;
import io.jsalt.states.files.FolderFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the line-by-line comparison with Salt cannot show: jsalt's own choices around Salt's filters. */
class SaltFiltersTest {
    @TempDir
    Path root;

    private String render(String template) {
        return new JinjaRenderer(FolderFiles.base(root)).render(template, TestCalls.context(TestCalls.realModules()));
    }

    @Test
    void pythonEscapesInLiteralsReachTheFiltersAsJinja2GivesThem() {
        assertThat(render("{{ 'a1 b22' | regex_replace('\\d+', '#') }}")).isEqualTo("a# b#");
        assertThat(render("{{ '\\x41\\u00e9\\101\\'' }}")).isEqualTo("AéA'");
        assertThat(render("{{ 'tab\\tnl' | length }}")).isEqualTo("6");
        // outside blocks, and in raw blocks, nothing is rewritten
        assertThat(render("x\\w {% raw %}{{ '\\w' }}{% endraw %}")).isEqualTo("x\\w {{ '\\w' }}");
    }

    @Test
    void anEscapeBeyondTheLastCodePointIsARenderErrorAsPythonsSyntaxError() {
        assertThatThrownBy(() -> render("{{ '\\UFFFFFFFF' }}"))
                .isInstanceOf(RenderException.class)
                .hasMessageContaining("illegal Unicode character")
                .hasMessageContaining("\\UFFFFFFFF");
        assertThat(render("{{ '\\U0001F600' }}")).isEqualTo("\uD83D\uDE00");
    }

    @Test
    void includedTemplatesGetPythonEscapesToo() throws Exception {
        Files.writeString(root.resolve("macros.jinja"), "{% macro digits(t) %}{{ t | regex_replace('\\D', '') }}{% endmacro %}");
        assertThat(render("{% from 'macros.jinja' import digits %}{{ digits('a1b2') }}")).isEqualTo("12");
    }

    @Test
    void aDictIsIteratedByItsKeysAsInJinja2() {
        assertThat(render("{% for k in {'a': 1, 'b': 2} %}{{ k }}{% endfor %}|{{ {'x': 1} | first }}")).isEqualTo("ab|x");
    }

    @Test
    void dictPathFiltersChangeATemplatesDictButOnlyACopyOfGrains() {
        assertThat(render("{% set d = {'a': {} } %}{% do d | set_dict_key_value('a:b', 1) %}{{ d.a.b }}"))
                .isEqualTo("1");
        assertThat(render("{{ (grains | set_dict_key_value('os', 'Arch')).os }} {{ grains.os }}"))
                .isEqualTo("Arch Debian");
    }

    @Test
    void jsonEncodeAndDecodeGiveTheDataBackAsText() {
        assertThat(render("{{ ({'a': 'b'} | json_encode_dict).a }} {{ (['x'] | json_decode_list)[0] }}")).isEqualTo("b x");
    }

    @Test
    void randomHashesDifferAndRespectTheHashType() {
        String a = render("{{ 1000000000 | random_hash('sha512') }}");
        assertThat(a).hasSize(128).matches("[0-9a-f]+");
        assertThat(render("{{ 10 | random_hash }}")).hasSize(32);
        assertThatThrownBy(() -> render("{{ 10 | random_hash('crc') }}")).hasMessageContaining("crc");
    }

    @Test
    void aFilterErrorNamesTheFilterAndTheFile() {
        assertThatThrownBy(() -> render("{{ [1, 'a'] | max }}")).isInstanceOf(RenderException.class)
                .hasMessageContaining("web/init.sls").hasMessageContaining("'<' not supported");
        assertThatThrownBy(() -> render("{{ 'x' | regex_search('(') }}")).hasMessageContaining("bad regular expression");
        assertThatThrownBy(() -> render("{{ [1] | yaml_encode }}")).hasMessageContaining("only works with YAML scalar data");
    }

    @Test
    void oneRendererRendersOnSeveralThreadsAtOnceAsThePillarWorkersDo() throws Exception {
        JinjaRenderer jinja = new JinjaRenderer(FolderFiles.base(root));
        RenderContext context = TestCalls.context(TestCalls.realModules());
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            java.util.List<java.util.concurrent.Future<String>> outs = new java.util.ArrayList<>();
            for (int i = 0; i < 200; i++) {
                int n = i;
                outs.add(pool.submit(() -> jinja.render("{% set x = " + n + " %}{% macro m(v) %}<{{ v }}>{% endmacro %}"
                        + "{{ m(x) }}{{ 'a' | regex_replace('a', x | string) }}", context)));
            }
            for (int i = 0; i < outs.size(); i++) {
                assertThat(outs.get(i).get(30, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("<" + i + ">" + i);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void tuplesPrintAsPythonAndActAsLists() {
        assertThat(render("{{ 'k=v' | regex_search('(\\w)=(\\w)') }} {{ ('k=v' | regex_search('(\\w)=(\\w)'))[1] }}"))
                .isEqualTo("('k', 'v') v");
        assertThat(PythonValues.repr(Map.of("k", new PyTuple(java.util.List.of(1.0))))).isEqualTo("{'k': (1.0,)}");
    }

    @Test
    void aPrintedValueIsPythonsStrAsJinja2PrintsIt() {
        assertThat(render("{{ {'port': 80} }}|{{ ['a', 1, True, 2.0] }}|{{ true }}|{{ 'text' }}|{{ 7 }}"))
                .isEqualTo("{'port': 80}|['a', 1, True, 2.0]|True|text|7");
        // Python's float repr (checked with Salt's python3): 0.0002, 0.0001, -0.0, 100.0, 123456.5
        assertThat(PythonValues.repr(java.util.List.of(0.0002, 0.0001, -0.0, 100.0, 123456.5, 1e-5)))
                .isEqualTo("[0.0002, 0.0001, -0.0, 100.0, 123456.5, 1e-05]");
        assertThat(render("[{{ nothing_defined }}]{{ salt['test.echo']('q') }}")).isEqualTo("[]q");
    }
}
