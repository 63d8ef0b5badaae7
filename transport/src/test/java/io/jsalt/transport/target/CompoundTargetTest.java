package io.jsalt.transport.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Compound targets: every matcher prefix, the operators with Python's precedence, and bad input. */
class CompoundTargetTest {

    private static final MinionFacts WEB1 = new MinionFacts("web1", Map.of("os", "Debian", "role", "web", "ipv4", List.of("10.0.0.1")));
    private static final MinionFacts WEB2 = new MinionFacts("web2", Map.of("os", "RedHat", "role", "web", "ipv4", List.of("10.0.1.2")));
    private static final MinionFacts DB1 = new MinionFacts("db1", Map.of("os", "Debian", "role", "db", "ipv4", List.of("192.168.0.7")));
    private static final List<MinionFacts> ALL = List.of(WEB1, WEB2, DB1);

    private static List<String> matching(String compound) {
        TargetMatcher m = TargetMatcher.of("compound", compound);
        return ALL.stream().filter(m::matches).map(MinionFacts::id).toList();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiterString = "=>", value = {
            "web*                                  => web1 web2",
            "G@os:Debian                           => web1 db1",
            "P@os:(Red|Cent)                       => web2",
            "E@web\\d                              => web1 web2",
            "L@db1,web2                            => web2 db1",
            "S@10.0.0.0/16                         => web1 web2",
            "S@192.168.0.7                         => db1",
            "G@role:web and G@os:Debian            => web1",
            "G@role:web and not L@web1             => web2",
            "web* or db*                           => web1 web2 db1",
            "not web1                              => web2 db1",
            "not not web1                          => web1",
            "web* not web1                         => web2",
            "db1 or web1 and G@os:RedHat           => db1",
            "( db1 or web1 ) and G@os:Debian       => web1 db1",
            "( db1 or web1 ) and not G@os:Debian   => ''",
            "not ( web1 or web2 )                  => db1",
            "not G@os:Debian or web1               => web1 web2",
            "( ( web1 ) )                          => web1",
            "G|@role|web and G@os:RedHat           => web2",
            "P@role:d and S@192.168.0.0/24         => db1",
    })
    void matchesAsSaltDoes(String compound, String expected) {
        List<String> want = expected.isBlank() ? List.of() : List.of(expected.split(" "));
        assertThat(matching(compound)).as(compound).containsExactlyElementsOf(want);
    }

    @Test
    void acceptsTheExpressionAsAListOfWords() {
        TargetMatcher m = TargetMatcher.of("compound", List.of("G@os:Debian", "and", "not", "db*"));

        assertThat(ALL.stream().filter(m::matches).map(MinionFacts::id)).containsExactly("web1");
    }

    @Test
    void decidesWithoutGrainsWhenTheIdAloneIsEnough() {
        assertThat(decideWithoutGrains("web* and G@os:Debian", "db1")).isEqualTo(Decision.NO_MATCH);
        assertThat(decideWithoutGrains("web* and G@os:Debian", "web1")).isEqualTo(Decision.UNKNOWN);
        assertThat(decideWithoutGrains("db* or G@os:Debian", "db1")).isEqualTo(Decision.MATCH);
        assertThat(decideWithoutGrains("db* or G@os:Debian", "web1")).isEqualTo(Decision.UNKNOWN);
        assertThat(decideWithoutGrains("not G@os:Debian", "web1")).isEqualTo(Decision.UNKNOWN);
        assertThat(decideWithoutGrains("not S@10.0.0.0/8 and L@a,b", "web1")).isEqualTo(Decision.NO_MATCH);
        assertThat(TargetMatcher.of("compound", "web* and G@os:Debian").matches("web1")).isFalse();
    }

    private static Decision decideWithoutGrains(String compound, String id) {
        return TargetMatcher.of("compound", compound).decide(MinionFacts.idOnly(id));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiterString = "=>", quoteCharacter = '"', value = {
            "\"\"                        => empty",
            "\"   \"                   => empty",
            "and web1                  => begin with 'and'",
            "or web1                   => begin with 'or'",
            "web1 and                  => ends with 'and'",
            "web1 or not               => ends with 'not'",
            "( web1                    => missing ')'",
            "( ( web1 )                => missing ')'",
            "web1 )                    => ')' without its '('",
            ") web1                    => ')' without its '('",
            "( and web1 )              => 'and' cannot follow '('",
            "( )                       => empty parentheses",
            "web1 db1                  => expected 'and', 'or' or ')' before 'db1'",
            "web1 and or db1           => 'or' cannot follow 'and'",
            "(web1 or db1)             => parentheses must stand alone",
            "X@foo                     => unknown target prefix 'X@'",
            "J@role:web[               => bad regular expression in pillar_pcre target",
            "R@%cluster                => range",
            "G@                        => nothing after 'G@'",
            "G@os                      => key:value",
            "E@web[                    => bad regular expression",
            "S@10.0.0.1/8              => IP/CIDR",
            "N@group                   => unknown nodegroup 'group'",
    })
    void refusesAMalformedExpressionWithAClearMessage(String compound, String message) {
        assertThatThrownBy(() -> TargetMatcher.of("compound", compound))
                .isInstanceOf(InvalidTargetException.class)
                .hasMessageContaining(message);
    }

    @Test
    void refusesNestingBeyondTheCapInsteadOfOverflowingTheStack() {
        String deep = "( ".repeat(2000) + "web1" + " )".repeat(2000);

        assertThatThrownBy(() -> TargetMatcher.of("compound", deep))
                .isInstanceOf(InvalidTargetException.class)
                .hasMessageContaining("nested deeper than " + CompoundParser.MAX_DEPTH);
    }

    @Test
    void acceptsNestingUpToTheCap() {
        int n = CompoundParser.MAX_DEPTH;
        String deep = "( ".repeat(n) + "web1" + " )".repeat(n);

        assertThat(TargetMatcher.of("compound", deep).matches("web1")).isTrue();
    }

    @Test
    void handlesALongChainOfNotsWithoutRecursion() {
        String nots = "not ".repeat(5001) + "web1";

        assertThat(TargetMatcher.of("compound", nots).matches("web1")).isFalse();
        assertThat(TargetMatcher.of("compound", nots).matches("db1")).isTrue();
    }

    @Test
    void refusesAHugeExpression() {
        String huge = "web1" + " or web1".repeat(CompoundParser.MAX_WORDS);

        assertThatThrownBy(() -> TargetMatcher.of("compound", huge))
                .isInstanceOf(InvalidTargetException.class)
                .hasMessageContaining("more than " + CompoundParser.MAX_WORDS);
    }

    @Test
    void evaluatesALongFlatChainWithinTheCap() {
        String chain = "db9" + " or db9".repeat(4000) + " or web1";

        assertThat(TargetMatcher.of("compound", chain).matches("web1")).isTrue();
    }

    @Test
    void refusesACompoundOfTheWrongShape() {
        assertThatThrownBy(() -> TargetMatcher.of("compound", 42L)).isInstanceOf(InvalidTargetException.class);
        assertThatThrownBy(() -> TargetMatcher.of("compound", null)).isInstanceOf(InvalidTargetException.class);
    }

    @Test
    void combinesDecisionsWithThreeValuedLogic() {
        assertThat(Decision.UNKNOWN.and(Decision.NO_MATCH)).isEqualTo(Decision.NO_MATCH);
        assertThat(Decision.UNKNOWN.and(Decision.MATCH)).isEqualTo(Decision.UNKNOWN);
        assertThat(Decision.UNKNOWN.or(Decision.MATCH)).isEqualTo(Decision.MATCH);
        assertThat(Decision.UNKNOWN.or(Decision.NO_MATCH)).isEqualTo(Decision.UNKNOWN);
        assertThat(Decision.UNKNOWN.not()).isEqualTo(Decision.UNKNOWN);
        assertThat(Decision.MATCH.not()).isEqualTo(Decision.NO_MATCH);
    }
}
