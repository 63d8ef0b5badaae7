package io.jsalt.transport.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** grain and grain_pcre targets, as Salt's subdict_match reads them. */
class GrainTargetTest {

    private static Map<String, Object> grains() {
        Map<String, Object> g = new LinkedHashMap<>();
        g.put("os", "Debian");
        g.put("os_family", "Debian");
        g.put("num_cpus", 4L);
        g.put("virtual", false);
        g.put("mem_ratio", 0.5);
        g.put("selinux", null);
        g.put("roles", List.of("web", "cache"));
        g.put("ip_interfaces", Map.of("eth0", List.of("10.0.0.5"), "lo", List.of("127.0.0.1")));
        g.put("location", Map.of("dc", Map.of("rack", "r12")));
        g.put("url", "http://example.org:8080");
        g.put("disks", List.of(Map.of("name", "sda", "size", 100L), Map.of("name", "sdb")));
        g.put("empty", Map.of());
        return g;
    }

    private static Decision grain(String tgt) {
        return TargetMatcher.of("grain", tgt).decide(new MinionFacts("m1", grains()));
    }

    private static Decision grainPcre(String tgt) {
        return TargetMatcher.of("grain_pcre", tgt).decide(new MinionFacts("m1", grains()));
    }

    @Test
    void matchesAGrainValueAsAGlob() {
        assertThat(grain("os:Debian")).isEqualTo(Decision.MATCH);
        assertThat(grain("os:Deb*")).isEqualTo(Decision.MATCH);
        assertThat(grain("os:Ubuntu")).isEqualTo(Decision.NO_MATCH);
        assertThat(grain("os:Deb")).as("the glob covers the whole value").isEqualTo(Decision.NO_MATCH);
    }

    @Test
    void comparesWithoutRegardToCaseAsSaltDoes() {
        assertThat(grain("os:debian")).isEqualTo(Decision.MATCH);
        assertThat(grain("os:DEBIAN")).isEqualTo(Decision.MATCH);
    }

    @Test
    void matchesNumbersBooleansAndNoneAsTheirPythonText() {
        assertThat(grain("num_cpus:4")).isEqualTo(Decision.MATCH);
        assertThat(grain("num_cpus:[3-5]")).isEqualTo(Decision.MATCH);
        assertThat(grain("virtual:False")).isEqualTo(Decision.MATCH);
        assertThat(grain("virtual:false")).isEqualTo(Decision.MATCH);
        assertThat(grain("virtual:True")).isEqualTo(Decision.NO_MATCH);
        assertThat(grain("mem_ratio:0.5")).isEqualTo(Decision.MATCH);
        assertThat(grain("selinux:None")).isEqualTo(Decision.MATCH);
    }

    @Test
    void matchesAListGrainWhenAnyElementMatches() {
        assertThat(grain("roles:web")).isEqualTo(Decision.MATCH);
        assertThat(grain("roles:cach*")).isEqualTo(Decision.MATCH);
        assertThat(grain("roles:db")).isEqualTo(Decision.NO_MATCH);
    }

    @Test
    void followsNestedKeysSeparatedByColons() {
        assertThat(grain("location:dc:rack:r12")).isEqualTo(Decision.MATCH);
        assertThat(grain("location:dc:rack:r1")).isEqualTo(Decision.NO_MATCH);
        assertThat(grain("ip_interfaces:eth0:10.0.0.*")).isEqualTo(Decision.MATCH);
        assertThat(grain("ip_interfaces:lo:10.*")).isEqualTo(Decision.NO_MATCH);
    }

    @Test
    void letsTheValueHoldTheDelimiterWhenNoDeeperKeyMatches() {
        assertThat(grain("url:http://example.org:8080")).isEqualTo(Decision.MATCH);
        assertThat(grain("url:http://*")).isEqualTo(Decision.MATCH);
    }

    @Test
    void matchesAKeyOfANestedDictAndAStarForAnyValue() {
        assertThat(grain("location:dc")).as("the key exists under location").isEqualTo(Decision.MATCH);
        assertThat(grain("location:*")).isEqualTo(Decision.MATCH);
        assertThat(grain("location:nowhere")).isEqualTo(Decision.NO_MATCH);
    }

    @Test
    void searchesDictsInsideListsAndIndexesLists() {
        assertThat(grain("disks:name:sdb")).isEqualTo(Decision.MATCH);
        assertThat(grain("disks:size:100")).isEqualTo(Decision.MATCH);
        assertThat(grain("roles:0:web")).isEqualTo(Decision.MATCH);
        assertThat(grain("roles:-1:cache")).as("Python indexes from the end").isEqualTo(Decision.MATCH);
        assertThat(grain("roles:5:web")).isEqualTo(Decision.NO_MATCH);
    }

    @Test
    void findsANumericKeyWrittenAsText() {
        Map<Object, Object> byPort = new HashMap<>();
        byPort.put(8080L, "http-alt");
        Map<String, Object> g = new HashMap<>();
        g.put("ports", byPort);

        assertThat(TargetMatcher.of("grain", "ports:8080:http*").decide(new MinionFacts("m", g))).isEqualTo(Decision.MATCH);
    }

    @Test
    void neverMatchesAMissingGrainOrAnEmptyDict() {
        assertThat(grain("kernel:Linux")).isEqualTo(Decision.NO_MATCH);
        assertThat(grain("empty:*")).isEqualTo(Decision.NO_MATCH);
    }

    @Test
    void isUnknownWithoutGrains() {
        assertThat(TargetMatcher.of("grain", "os:Debian").decide(MinionFacts.idOnly("m1"))).isEqualTo(Decision.UNKNOWN);
        assertThat(TargetMatcher.of("grain", "os:Debian").matches("m1")).isFalse();
        assertThat(TargetMatcher.of("grain", "os:Debian").decide(new MinionFacts("m1", Map.of()))).isEqualTo(Decision.NO_MATCH);
    }

    @Test
    void matchesAGrainByRegexAnchoredAtTheStart() {
        assertThat(grainPcre("os:(Debian|Ubuntu)")).isEqualTo(Decision.MATCH);
        assertThat(grainPcre("os:Deb")).as("re.match: a prefix is enough").isEqualTo(Decision.MATCH);
        assertThat(grainPcre("os:ebian")).as("but it is anchored at the start").isEqualTo(Decision.NO_MATCH);
        assertThat(grainPcre("os:debian$")).isEqualTo(Decision.MATCH);
        assertThat(grainPcre("num_cpus:[0-9]+$")).isEqualTo(Decision.MATCH);
        assertThat(grainPcre("roles:c.che")).isEqualTo(Decision.MATCH);
        assertThat(grainPcre("location:dc:rack:r\\d+")).isEqualTo(Decision.MATCH);
    }

    @Test
    void refusesAGrainTargetWithoutADelimiterOrWithABadRegex() {
        assertThatThrownBy(() -> TargetMatcher.of("grain", "Debian"))
                .isInstanceOf(InvalidTargetException.class).hasMessageContaining("key:value");
        assertThatThrownBy(() -> TargetMatcher.of("grain_pcre", "os:(Deb"))
                .isInstanceOf(InvalidTargetException.class).hasMessageContaining("regular expression");
        assertThatThrownBy(() -> TargetMatcher.of("grain", "")).isInstanceOf(InvalidTargetException.class);
        assertThatThrownBy(() -> TargetMatcher.of("grain", List.of("os:Debian"))).isInstanceOf(InvalidTargetException.class);
    }

    @Test
    void survivesHostilelyDeepGrains() {
        Object deep = "bottom";
        for (int i = 0; i < 100_000; i++) {
            List<Object> wrap = new ArrayList<>();
            wrap.add(Map.of("k", deep));
            deep = wrap;
        }
        Map<String, Object> g = Map.of("deep", deep);

        assertThat(TargetMatcher.of("grain", "deep:*:bottom").decide(new MinionFacts("m", g))).isEqualTo(Decision.NO_MATCH);
        assertThat(TargetMatcher.of("grain", "deep:k:k:k:*").decide(new MinionFacts("m", g))).isEqualTo(Decision.MATCH);
    }

    @Test
    void spellsValuesAsPythonsStr() {
        assertThat(PythonText.str(true)).isEqualTo("True");
        assertThat(PythonText.str(null)).isEqualTo("None");
        assertThat(PythonText.str(42L)).isEqualTo("42");
        assertThat(PythonText.str(1.0)).isEqualTo("1.0");
        assertThat(PythonText.str(1e20)).isEqualTo("1e+20");
        assertThat(PythonText.str(1.5e-7)).isEqualTo("1.5e-07");
        assertThat(PythonText.str(0.0001)).isEqualTo("0.0001");
        assertThat(PythonText.str(123456789.125)).isEqualTo("123456789.125");
        assertThat(PythonText.str(List.of("a", 1L, false))).isEqualTo("['a', 1, False]");
        assertThat(PythonText.str(List.of("it's"))).isEqualTo("[\"it's\"]");
        assertThat(PythonText.str(Map.of("k", List.of()))).isEqualTo("{'k': []}");
    }
}
