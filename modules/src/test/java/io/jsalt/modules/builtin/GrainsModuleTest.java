package io.jsalt.modules.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GrainsModuleTest {

    private final Map<String, Object> grains = grains();
    private final ModuleRegistry registry = ModuleRegistry.builtIn(
            SimpleModuleContext.builder().minionId("web1").grains(grains).build());

    private static Map<String, Object> grains() {
        Map<String, Object> grains = new LinkedHashMap<>();
        grains.put("os", "Debian");
        grains.put("id", "web1");
        grains.put("pkg", Map.of("apache", "apache2", "nested", Map.of("deep", 1L)));
        grains.put("ipv4", List.of("127.0.0.1", "10.0.0.5"));
        grains.put("roles", List.of(Map.of("name", "web")));
        grains.put("empty", "");
        grains.put("a:b", "literal key");
        return grains;
    }

    private CallResult call(String fun, Object... args) {
        return registry.call(fun, Arrays.asList(args));
    }

    private static Map<String, Object> kwargs(Object... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("__kwarg__", true);
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], pairs[i + 1]);
        }
        return map;
    }

    @Test
    void itemsReturnsEveryGrain() {
        assertThat(call("grains.items")).isEqualTo(CallResult.ok(grains));
    }

    @Test
    void getWalksNestedValuesWithTheDelimiter() {
        assertThat(call("grains.get", "os").ret()).isEqualTo("Debian");
        assertThat(call("grains.get", "pkg:apache").ret()).isEqualTo("apache2");
        assertThat(call("grains.get", "pkg:nested:deep").ret()).isEqualTo(1L);
        assertThat(call("grains.get", "ipv4:1").ret()).isEqualTo("10.0.0.5");
        assertThat(call("grains.get", "roles:name").ret()).isEqualTo("web");
        assertThat(call("grains.get", "pkg/apache", kwargs("delimiter", "/")).ret()).isEqualTo("apache2");
        assertThat(call("grains.get", "a:b").ret()).isEqualTo("literal key");
    }

    @Test
    void getReturnsTheDefaultForAMissingGrain() {
        assertThat(call("grains.get", "nope").ret()).isEqualTo("");
        assertThat(call("grains.get", "pkg:nope", "fallback").ret()).isEqualTo("fallback");
        assertThat(call("grains.get", "ipv4:9", kwargs("default", 0L)).ret()).isEqualTo(0L);
    }

    @Test
    void itemReturnsTheNamedGrainsAsAMap() {
        assertThat(call("grains.item", "os", "id", "missing").ret())
                .isEqualTo(Map.of("os", "Debian", "id", "web1", "missing", ""));
        assertThat(call("grains.item", "pkg:apache").ret()).isEqualTo(Map.of("pkg:apache", "apache2"));
    }

    @Test
    void lsListsGrainNamesSorted() {
        assertThat(call("grains.ls").ret()).isEqualTo(List.of("a:b", "empty", "id", "ipv4", "os", "pkg", "roles"));
    }

    @Test
    void hasValueIsFalseForMissingOrEmptyGrains() {
        assertThat(call("grains.has_value", "os").ret()).isEqualTo(true);
        assertThat(call("grains.has_value", "empty").ret()).isEqualTo(false);
        assertThat(call("grains.has_value", "nope").ret()).isEqualTo(false);
        assertThat(call("grains.has_value", "pkg:nested").ret()).isEqualTo(true);
    }
}
