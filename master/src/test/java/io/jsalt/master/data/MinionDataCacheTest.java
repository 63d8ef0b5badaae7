package io.jsalt.master.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MinionDataCacheTest {
    final MinionDataCache cache = new MinionDataCache();

    @Test
    void keepsTheLastGrainsOfEachMinionAsAnImmutableCopy() {
        Map<String, Object> grains = new HashMap<>(Map.of("os", "Debian"));
        cache.putGrains("web1", grains);
        grains.put("os", "changed");

        assertThat(cache.grains("web1")).contains(Map.of("os", "Debian"));
        assertThatThrownBy(() -> cache.grains("web1").get().put("x", 1)).isInstanceOf(UnsupportedOperationException.class);

        cache.putGrains("web1", Map.of("os", "Alpine"));
        assertThat(cache.grains("web1")).contains(Map.of("os", "Alpine"));
        assertThat(cache.grains("web2")).isEmpty();
    }

    @Test
    void forgetsAMinion() {
        cache.putGrains("web1", Map.of("os", "Debian"));
        cache.forget("web1");
        assertThat(cache.grains("web1")).isEmpty();
    }

    /** A salt-minion's grains can hold None values (Python), which Map.copyOf refuses. */
    @Test
    void keepsGrainsWithNullValues() {
        Map<String, Object> grains = new HashMap<>();
        grains.put("os", "Debian");
        grains.put("biosversion", null);

        cache.putGrains("web1", grains);

        assertThat(cache.grains("web1")).hasValueSatisfying(g -> assertThat(g).containsEntry("os", "Debian"));
    }
}
