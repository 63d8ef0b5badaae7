package io.jsalt.transport.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Nodegroups expanded into compound expressions before publishing, as Salt's nodegroup_comp. */
class NodegroupsTest {

    private static final Map<String, Object> GROUPS = Map.of(
            "webservers", "web* and G@role:web",
            "dbs", List.of("db1", "db2"),
            "regexy", "web[12] db1",
            "everything", "N@webservers or N@dbs",
            "notdb", "not N@dbs",
            "loop1", "N@loop2 or web1",
            "loop2", "N@loop1",
            "self", "N@self",
            "bad", 42L,
            "empty", List.of());

    @Test
    void expandsANodegroupTargetIntoACompound() {
        assertThat(Nodegroups.expand("nodegroup", "webservers", GROUPS)).isEqualTo(new Target("compound", "web* and G@role:web"));
    }

    @Test
    void turnsAListOfIdsIntoAListMatcher() {
        assertThat(Nodegroups.expand("nodegroup", "dbs", GROUPS)).isEqualTo(new Target("compound", "L@db1,db2"));
    }

    @Test
    void turnsBareWordsWithRegexCharactersIntoARegexAsSaltDoes() {
        assertThat(Nodegroups.expand("nodegroup", "regexy", GROUPS)).isEqualTo(new Target("compound", "E@web[12],db1"));
    }

    @Test
    void expandsNestedNodegroupsInParentheses() {
        assertThat(Nodegroups.expand("nodegroup", "everything", GROUPS).tgt())
                .isEqualTo("( web* and G@role:web ) or L@db1,db2");
        assertThat(Nodegroups.expand("compound", "N@notdb and not web9", GROUPS).tgt())
                .isEqualTo("( not L@db1,db2 ) and not web9");
    }

    @Test
    void leavesOtherTargetsAsGiven() {
        List<String> words = List.of("web*", "and", "G@os:Debian");
        assertThat(Nodegroups.expand("compound", words, GROUPS).tgt()).isSameAs(words);
        assertThat(Nodegroups.expand("glob", "N@dbs", GROUPS)).isEqualTo(new Target("glob", "N@dbs"));
    }

    @Test
    void matchesThroughANodegroup() {
        MinionFacts web1 = new MinionFacts("web1", Map.of("role", "web"));
        MinionFacts db2 = new MinionFacts("db2", Map.of("role", "db"));
        MinionFacts web3 = new MinionFacts("web3", Map.of("role", "db"));

        TargetMatcher everything = TargetMatcher.of("nodegroup", "everything", GROUPS);
        assertThat(List.of(web1, db2, web3).stream().filter(everything::matches).map(MinionFacts::id)).containsExactly("web1", "db2");
        TargetMatcher notDb = TargetMatcher.of("compound", "N@notdb and web*", GROUPS);
        assertThat(notDb.matches(web3)).isTrue();
        assertThat(notDb.decide(MinionFacts.idOnly("db2"))).isEqualTo(Decision.NO_MATCH);
    }

    @Test
    void refusesCyclesUnknownAndMalformedGroups() {
        assertThatThrownBy(() -> Nodegroups.expand("nodegroup", "loop1", GROUPS))
                .isInstanceOf(InvalidTargetException.class).hasMessageContaining("cycle: loop1 -> loop2 -> loop1");
        assertThatThrownBy(() -> Nodegroups.expand("compound", "N@self", GROUPS))
                .isInstanceOf(InvalidTargetException.class).hasMessageContaining("cycle");
        assertThatThrownBy(() -> Nodegroups.expand("nodegroup", "nope", GROUPS))
                .isInstanceOf(InvalidTargetException.class).hasMessageContaining("unknown nodegroup 'nope'");
        assertThatThrownBy(() -> Nodegroups.expand("compound", "web1 or N@nope", GROUPS))
                .isInstanceOf(InvalidTargetException.class).hasMessageContaining("unknown nodegroup 'nope'");
        assertThatThrownBy(() -> Nodegroups.expand("nodegroup", "bad", GROUPS))
                .isInstanceOf(InvalidTargetException.class).hasMessageContaining("compound string or a list");
        assertThatThrownBy(() -> Nodegroups.expand("nodegroup", "empty", GROUPS))
                .isInstanceOf(InvalidTargetException.class).hasMessageContaining("empty");
        assertThatThrownBy(() -> Nodegroups.expand("nodegroup", List.of("dbs"), GROUPS)).isInstanceOf(InvalidTargetException.class);
        assertThatThrownBy(() -> TargetMatcher.of("nodegroup", "dbs")).as("a minion has no nodegroups")
                .isInstanceOf(InvalidTargetException.class).hasMessageContaining("unknown nodegroup");
    }

    @Test
    void refusesAnExponentialExpansionInsteadOfBuildingIt() {
        Map<String, Object> doubling = new HashMap<>();
        doubling.put("g0", "web1 or web2");
        for (int i = 1; i <= 30; i++) {
            doubling.put("g" + i, "N@g" + (i - 1) + " or N@g" + (i - 1));
        }

        assertThatThrownBy(() -> Nodegroups.expand("nodegroup", "g30", doubling))
                .isInstanceOf(InvalidTargetException.class).hasMessageContaining("exceeds");
    }

    @Test
    void refusesNestingBeyondTheCap() {
        Map<String, Object> chain = new HashMap<>();
        for (int i = 0; i < 100; i++) {
            chain.put("g" + i, "N@g" + (i + 1));
        }
        chain.put("g100", "web1 or web2");

        assertThatThrownBy(() -> Nodegroups.expand("nodegroup", "g0", chain))
                .isInstanceOf(InvalidTargetException.class).hasMessageContaining("nested deeper than");
    }
}
