package io.jsalt.modules.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GrainPathTest {

    private final Map<String, Object> data = Map.of("a", Map.of("b", List.of("x", Map.of("c", "deep"))));

    @Test
    void walksMapsAndListsLikeSaltsTraverseDictAndList() {
        assertThat(GrainPath.get(data, "a:b:0", ":", "d")).isEqualTo("x");
        assertThat(GrainPath.get(data, "a:b:c", ":", "d")).isEqualTo("deep");
        assertThat(GrainPath.get(data, "a:b:1:c", ":", "d")).isEqualTo("deep");
        assertThat(GrainPath.get(data, "a:b:5", ":", "d")).isEqualTo("d");
        assertThat(GrainPath.get(data, "a:b:0:z", ":", "d")).isEqualTo("d");
        assertThat(GrainPath.get(data, "a.b.0", ".", "d")).isEqualTo("x");
    }
}
