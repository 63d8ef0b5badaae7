package io.jsalt.states.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.states.TestCalls;
import io.jsalt.states.files.FolderFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Salt's Jinja filters and tests, each line of salt-jinja/filters.jinja against what Salt 3006.8's own Jinja rendered
 * for it (salt-jinja/filters.salt-3006.8.out, one line per template line, new lines written as \n; "ERROR: ..." where
 * Salt refused the line). Made with Salt's {@code salt.utils.templates.render_jinja_tmpl} on each line, grains
 * {@code {id: m1, os: Debian}}, in UTC (the strftime line depends on the zone, as Salt's does).
 */
class SaltFiltersVsSaltTest {

    static Stream<Arguments> lines() throws IOException {
        List<String> template = resource("filters.jinja");
        List<String> salt = resource("filters.salt-3006.8.out");
        assertThat(salt).hasSameSizeAs(template);
        List<Arguments> cases = new ArrayList<>();
        for (int i = 0; i < template.size(); i++) {
            cases.add(Arguments.of(i + 1, template.get(i), salt.get(i)));
        }
        return cases.stream();
    }

    private static List<String> resource(String name) throws IOException {
        try (InputStream in = SaltFiltersVsSaltTest.class.getResourceAsStream("/salt-jinja/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    @ParameterizedTest(name = "line {0}")
    @MethodSource("lines")
    void rendersAsSaltDoes(int line, String template, String salt) {
        JinjaRenderer jinja = new JinjaRenderer(FolderFiles.base(Path.of("/nonexistent")));
        RenderContext context = TestCalls.context(TestCalls.realModules());
        if (salt.startsWith("ERROR: ")) {
            assertThatThrownBy(() -> jinja.render(template, context)).isInstanceOf(RenderException.class);
        } else {
            assertThat(jinja.render(template, context).replace("\n", "\\n")).as(template).isEqualTo(salt);
        }
    }
}
