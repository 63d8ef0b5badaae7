package io.jsalt.states.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.states.StatesException;
import io.jsalt.states.files.FolderFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlsRendererTest {
    @TempDir
    Path root;

    /** Records calls and answers test.echo and grains.get; anything else does not exist. */
    private final List<String> calls = new ArrayList<>();
    private final FunctionCaller caller = new FunctionCaller() {
        @Override
        public boolean has(String fun) {
            return fun.equals("test.echo") || fun.equals("test.boom");
        }

        @Override
        public Object call(String fun, List<Object> args, Map<String, Object> kwargs) {
            calls.add(fun + args + kwargs);
            if (fun.equals("test.boom")) {
                throw new StatesException("boom went the module");
            }
            return "echo:" + args.get(0) + (kwargs.isEmpty() ? "" : kwargs);
        }
    };

    private RenderContext context(String sls, String path) {
        return new RenderContext(Map.of("os", "Debian", "roles", List.of("web", "db")), Map.of("port", 8080),
                Map.of("id", "m1"), "base", sls, path, caller);
    }

    private Map<String, Object> render(String text) {
        return new SlsRenderer(FolderFiles.base(root)).render(text, context("web.app", "web/app.sls"));
    }

    @Test
    void jinjaThenYamlIsTheDefaultAndSeesSaltsContext() {
        Map<String, Object> data = render("""
                {% for role in grains['roles'] %}
                {{ role }}-{{ grains.os }}:
                  test.nop:
                    - port: {{ pillar['port'] }}
                    - who: {{ opts.id }}
                    - where: "{{ saltenv }} {{ sls }} {{ slspath }} {{ tpldir }}"
                {% endfor %}
                """);
        assertThat(data).containsOnlyKeys("web-Debian", "db-Debian");
        assertThat(data.get("web-Debian").toString())
                .isEqualTo("{test.nop=[{port=8080}, {who=m1}, {where=base web.app web web}]}");
    }

    @Test
    void saltFunctionsRunExecutionModulesWithPositionalAndKeywordArguments() {
        Map<String, Object> data = render("""
                a:
                  test.nop:
                    - value: {{ salt['test.echo']('hello') }}
                    - kw: "{{ salt['test.echo']('x', flag=True) }}"
                """);
        assertThat(data.get("a").toString()).contains("value=echo:hello", "kw=echo:x{flag=true}");
        assertThat(calls).containsExactly("test.echo[hello]{}", "test.echo[x]{flag=true}");
    }

    @Test
    void aFailingSaltCallIsARenderErrorNamingTheFileAndLine() {
        assertThatThrownBy(() -> render("""
                a:
                  test.nop:
                    - value: {{ salt['test.boom']('x') }}
                """))
                .isInstanceOf(RenderException.class)
                .hasMessageContaining("web/app.sls")
                .hasMessageContaining("line 3")
                .hasMessageContaining("boom went the module");
    }

    @Test
    void aJinjaSyntaxErrorNamesTheFileAndLine() {
        assertThatThrownBy(() -> render("a:\n  test.nop: []\n{% if grains.os %}\nb: 1\n"))
                .isInstanceOf(RenderException.class)
                .hasMessageStartingWith("Jinja error in web/app.sls: line ");
    }

    @Test
    void aYamlErrorNamesTheFileAndLine() {
        assertThatThrownBy(() -> render("a:\n  test.nop:\n    - x: 1\n   bad: [\n"))
                .isInstanceOf(RenderException.class)
                .hasMessageContaining("Rendering yaml failed in web/app.sls: line 4");
    }

    @Test
    void yamlShebangSkipsJinja() {
        Map<String, Object> data = render("#!yaml\na:\n  test.nop:\n    - text: '{{ not jinja }}'\n");
        assertThat(data.get("a").toString()).contains("text={{ not jinja }}");
    }

    @Test
    void jinjaJsonShebangReadsJson() {
        Map<String, Object> data = render("#!jinja|json\n{\"{{ grains.os }}\": {\"test.nop\": [{\"n\": 1}]}}\n");
        assertThat(data.get("Debian").toString()).isEqualTo("{test.nop=[{n=1}]}");
    }

    @Test
    // tojson is Salt's: json.dumps' ", " separator, as salt-call renders it
    void pythonStyleDictMethodsWorkOnSaltsData() {
        Map<String, Object> data = render("""
                a:
                  test.nop:
                    - os: {{ grains.get('os') }}
                    - missing: {{ grains.get('nope', 'fallback') }}
                    - keys: "{% for k, v in grains.items() %}{{ k }}={{ v|join(',') if v is iterable and v is not string else v }};{% endfor %}"
                    - json: '{{ grains.roles|tojson }}'
                """);
        assertThat(data.get("a").toString()).contains("os=Debian", "missing=fallback", "os=Debian;", "roles=web,db;",
                "json=[\"web\", \"db\"]");
    }

    @Test
    void importYamlAndImportJsonAndSaltsDataFiltersWork() throws Exception {
        Files.createDirectories(root.resolve("web"));
        Files.writeString(root.resolve("web/defaults.yaml"), "port: 81\nusers: [a, b]\n");
        Files.writeString(root.resolve("web/extra.json"), "{\"debug\": true}");
        Map<String, Object> data = render("""
                {% import_yaml 'web/defaults.yaml' as defaults %}
                {% import_json 'salt://web/extra.json' as extra %}
                a:
                  test.nop:
                    - port: {{ defaults.port }}
                    - users: {{ defaults.users|yaml }}
                    - debug: {{ extra.debug }}
                    - text: '{{ {"k": [1, "x"]}|json }}'
                    - loaded: {{ ("{x: 5}"|load_yaml).x }}
                """);
        assertThat(data.get("a").toString()).contains("port=81", "users=[a, b]", "debug=true",
                "text={\"k\": [1, \"x\"]}", "loaded=5");
    }

    @Test
    void importYamlOfAMissingFileIsARenderError() {
        assertThatThrownBy(() -> render("{% import_yaml 'nope.yaml' as x %}\na: 1\n"))
                .isInstanceOf(RenderException.class).hasMessageContaining("nope.yaml");
    }

    @Test
    void anUnknownRendererIsRefusedByName() {
        assertThatThrownBy(() -> render("#!mako|yaml\na: 1\n")).hasMessageContaining("Renderer 'mako'");
    }

    @Test
    void aListAtTheTopIsNotAnSls() {
        assertThatThrownBy(() -> render("- a\n- b\n")).hasMessageContaining("does not render to a dictionary");
    }

    @Test
    void includeAndImportReadThroughTheFileServer() throws Exception {
        Files.createDirectories(root.resolve("web"));
        Files.writeString(root.resolve("web/map.jinja"), "{% set port = 81 %}");
        Files.writeString(root.resolve("web/part.txt"), "from include");
        Map<String, Object> data = render("""
                {% from 'web/map.jinja' import port %}
                a:
                  test.nop:
                    - port: {{ port }}
                    - text: "{% include 'salt://web/part.txt' %}"
                """);
        assertThat(data.get("a").toString()).contains("port=81", "text=from include");
    }

    @Test
    void initSlsHasItsOwnFolderAsSlspath() {
        RenderContext init = context("web", "web/init.sls");
        assertThat(init.slspath()).isEqualTo("web");
        assertThat(init.tpldir()).isEqualTo("web");
        RenderContext top = context("top", "top.sls");
        assertThat(top.slspath()).isEmpty();
        assertThat(top.tpldir()).isEqualTo(".");
    }
}
