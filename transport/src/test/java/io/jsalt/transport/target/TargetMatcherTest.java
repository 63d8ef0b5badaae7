package io.jsalt.transport.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Target resolution as Salt's glob, pcre and list matchers do it. */
class TargetMatcherTest {

    private static final List<String> MINIONS = List.of("web3", "db1", "web1.lan", "web2", "cache-web1", "web10");

    @Test
    void matchesAGlobOverTheWholeId() {
        TargetMatcher m = TargetMatcher.of("glob", "web*");

        assertThat(m.matches("web1.lan")).isTrue();
        assertThat(m.matches("cache-web1")).isFalse();
        assertThat(m.filter(MINIONS)).containsExactly("web1.lan", "web10", "web2", "web3");
    }

    @Test
    void treatsAMissingTargetTypeAsGlob() {
        assertThat(TargetMatcher.of(null, "web?").filter(MINIONS)).containsExactly("web2", "web3");
        assertThat(TargetMatcher.of(null, "*").filter(MINIONS)).hasSize(MINIONS.size());
    }

    @Test
    void anchorsARegexAtTheStartOnlyLikePythonsReMatch() {
        TargetMatcher m = TargetMatcher.of("pcre", "web\\d");

        assertThat(m.matches("web1.lan")).as("trailing text is allowed").isTrue();
        assertThat(m.matches("web10")).isTrue();
        assertThat(m.matches("cache-web1")).as("no search inside the id").isFalse();
        assertThat(m.filter(MINIONS)).containsExactly("web1.lan", "web10", "web2", "web3");
    }

    @Test
    void honoursAnExplicitEndAnchorInARegex() {
        TargetMatcher m = TargetMatcher.of("pcre", "web\\d$");

        assertThat(m.filter(MINIONS)).containsExactly("web2", "web3");
    }

    @Test
    void matchesARegexWithAlternationAndDotsAsRegex() {
        TargetMatcher m = TargetMatcher.of("pcre", "(db|cache)");

        assertThat(m.filter(MINIONS)).containsExactly("cache-web1", "db1");
        assertThat(TargetMatcher.of("pcre", "web.\\.lan").matches("web1.lan")).isTrue();
        assertThat(TargetMatcher.of("pcre", ".*web1").matches("cache-web1")).isTrue();
    }

    @Test
    void matchesAListGivenAsAList() {
        TargetMatcher m = TargetMatcher.of("list", List.of("web2", "db1", "absent"));

        assertThat(m.matches("web2")).isTrue();
        assertThat(m.matches("web")).as("exact ids, not prefixes").isFalse();
        assertThat(m.filter(MINIONS)).containsExactly("db1", "web2");
    }

    @Test
    void matchesAListGivenAsACommaSeparatedString() {
        TargetMatcher m = TargetMatcher.of("list", "web2,db1");

        assertThat(m.filter(MINIONS)).containsExactly("db1", "web2");
        assertThat(m.matches("web2,db1")).isFalse();
        assertThat(TargetMatcher.of("list", "web3").filter(MINIONS)).containsExactly("web3");
    }

    @Test
    void treatsGlobCharactersInAListAsLiteral() {
        TargetMatcher m = TargetMatcher.of("list", List.of("web*"));

        assertThat(m.filter(MINIONS)).isEmpty();
        assertThat(m.matches("web*")).isTrue();
    }

    @Test
    void returnsTheMatchesSorted() {
        assertThat(TargetMatcher.of("glob", "*").filter(Set.of("c", "a", "b"))).containsExactly("a", "b", "c");
    }

    @Test
    void treatsAGlobWithAReversedRangeAsMatchingNothingLikeSalt() {
        // Python's fnmatch (3.9+) turns an empty range into a class that matches nothing; it never raises
        TargetMatcher m = TargetMatcher.of("glob", "web[9-0]");

        assertThat(m.filter(MINIONS)).isEmpty();
    }

    @Test
    void refusesAnUnsupportedTargetType() {
        assertThatThrownBy(() -> TargetMatcher.of("pillar_exact", "role:web"))
                .isInstanceOf(InvalidTargetException.class)
                .hasMessageContaining("pillar_exact");
        assertThatThrownBy(() -> TargetMatcher.of("range", "%cluster")).isInstanceOf(InvalidTargetException.class);
        assertThatThrownBy(() -> TargetMatcher.of("GLOB", "*")).as("wire names are lower case").isInstanceOf(InvalidTargetException.class);
    }

    @Test
    void refusesABadRegex() {
        assertThatThrownBy(() -> TargetMatcher.of("pcre", "web[0-9"))
                .isInstanceOf(InvalidTargetException.class)
                .hasMessageContaining("web[0-9");
        assertThatThrownBy(() -> TargetMatcher.of("pcre", "(web")).isInstanceOf(InvalidTargetException.class);
    }

    @Test
    void refusesATargetOfTheWrongShape() {
        assertThatThrownBy(() -> TargetMatcher.of("glob", List.of("web1"))).isInstanceOf(InvalidTargetException.class);
        assertThatThrownBy(() -> TargetMatcher.of("glob", "")).isInstanceOf(InvalidTargetException.class);
        assertThatThrownBy(() -> TargetMatcher.of("glob", null)).isInstanceOf(InvalidTargetException.class);
        assertThatThrownBy(() -> TargetMatcher.of("pcre", 42L)).isInstanceOf(InvalidTargetException.class);
        assertThatThrownBy(() -> TargetMatcher.of("list", Map.of("web1", true))).isInstanceOf(InvalidTargetException.class);
        assertThatThrownBy(() -> TargetMatcher.of("list", null)).isInstanceOf(InvalidTargetException.class);
    }

    @Test
    void knowsTheWireNamesOfItsTypes() {
        assertThat(TargetType.fromWire("glob")).contains(TargetType.GLOB);
        assertThat(TargetType.fromWire("pcre")).contains(TargetType.PCRE);
        assertThat(TargetType.fromWire("list")).contains(TargetType.LIST);
        assertThat(TargetType.fromWire("grain")).contains(TargetType.GRAIN);
        assertThat(TargetType.fromWire("grain_pcre")).contains(TargetType.GRAIN_PCRE);
        assertThat(TargetType.fromWire("ipcidr")).contains(TargetType.IPCIDR);
        assertThat(TargetType.fromWire("compound")).contains(TargetType.COMPOUND);
        assertThat(TargetType.fromWire("nodegroup")).contains(TargetType.NODEGROUP);
        assertThat(TargetType.fromWire("pillar")).contains(TargetType.PILLAR);
        assertThat(TargetType.fromWire("pillar_pcre")).contains(TargetType.PILLAR_PCRE);
        assertThat(TargetType.fromWire("pillar_exact")).isEmpty();
    }

    @Test
    void pillarTargetsMatchThePillarAsGrainTargetsMatchTheGrains() {
        Map<String, Object> pillar = Map.of("role", "web", "apps", List.of("shop", "blog"), "db", Map.of("port", 5432L));
        MinionFacts facts = new MinionFacts("m1", Map.of("role", "db"), pillar);

        assertThat(TargetMatcher.of("pillar", "role:web").matches(facts)).isTrue();
        assertThat(TargetMatcher.of("pillar", "role:db").matches(facts)).as("not the grains").isFalse();
        assertThat(TargetMatcher.of("pillar", "apps:bl*").matches(facts)).isTrue();
        assertThat(TargetMatcher.of("pillar", "db:port:5432").matches(facts)).isTrue();
        assertThat(TargetMatcher.of("pillar_pcre", "role:w.b").matches(facts)).isTrue();
        assertThat(TargetMatcher.of("compound", "I@role:web and G@role:db").matches(facts)).isTrue();
        assertThat(TargetMatcher.of("compound", "J@db:port:54\\d+ and not I@apps:mail").matches(facts)).isTrue();
        assertThat(TargetMatcher.of("pillar", "role:web").decide(new MinionFacts("m1", Map.of("role", "web"))))
                .as("without a pillar the answer is not known").isEqualTo(Decision.UNKNOWN);
        assertThat(TargetMatcher.of("compound", "I@role:web and db*").decide(new MinionFacts("m1", Map.of())))
                .isEqualTo(Decision.NO_MATCH);
    }
}
