package io.jsalt.cli.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/** {@code --out json} and {@code --out yaml}: what they print parses back to the returns. */
class OutputtersTest {

    private static String printed(Consumer<PrintStream> print) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            print.accept(out);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static Map<String, Object> returns() {
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("stdout", "line 1\nline 2: with colon");
        inner.put("retcode", 0);
        inner.put("list", Arrays.asList("a", null, true, 2.5));
        inner.put("nested", Map.of("k", List.of()));
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("web-1", inner);
        all.put("web-2", true);
        all.put("web-3", "'quoted' # not a comment");
        return all;
    }

    @Test
    void jsonOneWritesAnObjectPerMinionIndentedByFour() {
        String out = printed(o -> new JsonOutputter().one(o, "m1", true));

        assertThat(out).isEqualTo("{\n    \"m1\": true\n}\n");
    }

    @Test
    void jsonOneWritesANoneReturnAsNull() {
        String out = printed(o -> new JsonOutputter().one(o, "m1", null));

        assertThat(out).isEqualTo("{\n    \"m1\": null\n}\n");
    }

    @Test
    void jsonAllParsesBackToTheReturns() {
        Map<String, Object> returns = new LinkedHashMap<>();
        returns.put("m1", Map.of("a", 1L));
        returns.put("m2", "Minion did not return. [No response]");

        String out = printed(o -> new JsonOutputter().all(o, returns));

        assertThat(io.jsalt.transport.codec.Json.parse(out)).isEqualTo(returns);
    }

    @Test
    void yamlAllParsesBackToTheReturns() {
        String out = printed(o -> new YamlOutputter().all(o, returns()));

        Object loaded = new Load(LoadSettings.builder().build()).loadFromString(out);
        assertThat(loaded).isEqualTo(returns());
    }

    @Test
    void yamlOneIsABlockMappingOfTheMinion() {
        String out = printed(o -> new YamlOutputter().one(o, "m1", true));

        assertThat(out).isEqualTo("m1: true\n");
    }

    @Test
    void yamlOneWritesANoneReturnAsNull() {
        String out = printed(o -> new YamlOutputter().one(o, "m1", null));

        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("m1", null);
        assertThat(new Load(LoadSettings.builder().build()).loadFromString(out)).isEqualTo(expected);
    }

    @Test
    void streamedYamlReturnsReadTogetherAsOneMappingOfEveryMinion() {
        String out = printed(o -> {
            YamlOutputter yaml = new YamlOutputter();
            yaml.one(o, "m1", List.of(1, 2));
            yaml.one(o, "m2", "text");
        });

        Object loaded = new Load(LoadSettings.builder().build()).loadFromString(out);

        assertThat(loaded).as(out).isEqualTo(Map.of("m1", List.of(1, 2), "m2", "text"));
    }

    @Test
    void outputtersAreFoundByTheirSaltNames() {
        assertThat(Outputter.named("nested")).isInstanceOf(NestedOutputter.class);
        assertThat(Outputter.named("json")).isInstanceOf(JsonOutputter.class);
        assertThat(Outputter.named("yaml")).isInstanceOf(YamlOutputter.class);
        assertThatThrownBy(() -> Outputter.named("xml")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("xml");
    }
}
