package io.jsalt.minion.pillar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.modules.api.CommandExecutionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Salt's pillar module over a pillar in memory and a master that answers a fresh one. */
class PillarModuleTest {
    final MinionPillar inMemory = new MinionPillar();
    final List<Map<String, Object>> overridesAsked = new ArrayList<>();
    final List<String> envsAsked = new ArrayList<>();
    Map<String, Object> onMaster = Map.of("fresh", true);
    final PillarModule pillar = new PillarModule(inMemory, (override, saltenv, pillarenv) -> {
        overridesAsked.add(override);
        envsAsked.add(saltenv + "/" + pillarenv);
        return new java.util.LinkedHashMap<>(onMaster);
    });

    {
        inMemory.set(Map.of(
                "apache", Map.of("port", 80L, "vhosts", List.of(Map.of("name", "a"), Map.of("name", "b"))),
                "pkgs", List.of("vim", "git"),
                "flat", "x",
                "a|b", "piped"));
    }

    @Test
    void getWalksColonPathsThroughMapsAndLists() {
        assertThat(pillar.get("apache:port", null, false, null, ":", null, null)).isEqualTo(80L);
        assertThat(pillar.get("apache:vhosts:1:name", null, false, null, ":", null, null)).isEqualTo("b");
        assertThat(pillar.get("apache:vhosts:name", null, false, null, ":", null, null)).isEqualTo("a");
        assertThat(pillar.get("pkgs:-1", null, false, null, ":", null, null)).isEqualTo("git");
        assertThat(pillar.get("apache", null, false, null, ":", null, null)).isInstanceOf(Map.class);
    }

    @Test
    void getGivesTheDefaultOrAnEmptyStringForWhatIsAbsent() {
        assertThat(pillar.get("apache:nope", null, false, null, ":", null, null)).isEqualTo("");
        assertThat(pillar.get("flat:deeper", "d", false, null, ":", null, null)).isEqualTo("d");
        assertThat(pillar.get("pkgs:9", 7L, false, null, ":", null, null)).isEqualTo(7L);
    }

    @Test
    void getTakesAnotherDelimiter() {
        assertThat(pillar.get("apache|port", null, false, null, "|", null, null)).isEqualTo(80L);
        assertThat(pillar.get("a|b", null, false, null, ":", null, null)).isEqualTo("piped");
    }

    @Test
    void getMergesIntoADictOrListDefault() {
        assertThat(pillar.get("apache", Map.of("port", 1L, "user", "www"), true, null, ":", null, null))
                .isEqualTo(Map.of("port", 80L, "user", "www",
                        "vhosts", List.of(Map.of("name", "a"), Map.of("name", "b"))));
        assertThat(pillar.get("pkgs", List.of("git", "curl"), true, null, ":", null, null))
                .isEqualTo(List.of("git", "curl", "vim"));
    }

    @Test
    void itemAndRawReadTheMemoryAndItemsAndLsAskTheMaster() {
        assertThat(pillar.item(List.of("flat", "apache:port", "none"), Map.of()))
                .isEqualTo(Map.of("flat", "x", "apache:port", 80L, "none", ""));
        assertThat(pillar.raw("flat")).isEqualTo("x");
        assertThat(pillar.raw("none")).isEqualTo(Map.of());
        assertThat(pillar.raw(null)).isEqualTo(inMemory.get());
        assertThat(overridesAsked).isEmpty();

        assertThat(pillar.items(List.of(), Map.of())).isEqualTo(Map.of("fresh", true));
        assertThat(pillar.ls(null, null)).containsExactly("fresh");
        assertThat(pillar.items(List.of(), Map.of("pillar", Map.of("k", "v")))).isEqualTo(Map.of("fresh", true));
        assertThat(overridesAsked).containsExactly(Map.of(), Map.of(), Map.of("k", "v"));
        assertThat(inMemory.get()).containsKey("apache").doesNotContainKey("fresh");
        assertThat(envsAsked).containsOnly("null/null");
    }

    @Test
    void aNamedSaltenvOrPillarenvAsksTheMasterForThatOne() {
        assertThat(pillar.get("fresh", null, false, null, ":", "dev", null)).isEqualTo(true);
        assertThat(pillar.items(List.of(), Map.of("pillarenv", "prod"))).isEqualTo(Map.of("fresh", true));
        assertThat(pillar.ls("qa", null)).containsExactly("fresh");
        assertThat(envsAsked).containsExactly("null/dev", "null/prod", "qa/null");
    }

    @Test
    void itemsWithNamesIsItemAndABadOverrideOrAnAbsentMasterIsAClearError() {
        assertThat(pillar.items(List.of("flat"), Map.of())).isEqualTo(Map.of("flat", "x"));
        assertThatThrownBy(() -> pillar.items(List.of(), Map.of("pillar", "k=v")))
                .isInstanceOf(CommandExecutionException.class).hasMessageContaining("dictionary");
        PillarModule offline = new PillarModule(inMemory, (o, s, p) -> {
            throw new IllegalStateException("not signed in");
        });
        assertThatThrownBy(() -> offline.ls(null, null)).isInstanceOf(CommandExecutionException.class).hasMessageContaining("not signed in");
    }
}
