package io.jsalt.master.targeting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.master.data.MinionDataCache;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.support.TestKeys;
import io.jsalt.transport.target.InvalidTargetException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Target resolution on the master over accepted keys and cached grains. */
class TargetResolverTest {
    @TempDir
    Path root;
    KeyStore keys;
    MinionDataCache data;
    final Map<String, Object> nodegroups = new HashMap<>(Map.of(
            "web", "G@role:web",
            "dbs", List.of("db1", "db2", "gone"),
            "all_but_dbs", "* and not N@dbs"));
    TargetResolver resolver;

    @BeforeEach
    void setUp() {
        keys = new KeyStore(root.resolve("pki"));
        String pem = TestKeys.pem(TestKeys.minion(0));
        for (String id : List.of("web1", "web2", "db1", "db2", "new1")) {
            keys.store(KeyState.ACCEPTED, id, pem);
        }
        keys.store(KeyState.PENDING, "web9", pem);
        data = new MinionDataCache(root.resolve("cache"));
        data.putGrains("web1", Map.of("os", "Debian", "role", "web", "ipv4", List.of("127.0.0.1", "10.0.0.11")));
        data.putGrains("web2", Map.of("os", "RedHat", "role", "web", "ipv4", List.of("127.0.0.1", "10.0.0.12")));
        data.putGrains("db1", Map.of("os", "Debian", "role", "db", "ipv4", List.of("127.0.0.1", "10.0.1.5")));
        data.putGrains("db2", Map.of("os", "Debian", "role", "db", "ipv4", List.of("10.0.1.6")));
        data.putGrains("web9", Map.of("role", "web")); // pending: never targeted, whatever its grains
        resolver = new TargetResolver(keys, data, nodegroups);
    }

    @Test
    void resolvesIdTargetsWithoutGrains() {
        assertThat(resolver.resolve("glob", "web*").expected()).containsExactly("web1", "web2");
        assertThat(resolver.resolve(null, "*").expected()).containsExactly("db1", "db2", "new1", "web1", "web2");
        assertThat(resolver.resolve("pcre", "db").expected()).containsExactly("db1", "db2");
        assertThat(resolver.resolve("glob", "*").undecided()).as("an id target never waits on grains").isEmpty();
    }

    @Test
    void aTargetCompiledOnceExpectsTheMinionsThatExpectsDoes() {
        List<String> ids = List.of("web1", "web2", "db1", "db2", "new1", "web9", "ghost");
        for (List<Object> target : List.<List<Object>>of(List.of("glob", "web*"), List.of("grain", "os:Debian"),
                List.of("nodegroup", "all_but_dbs"), List.of("list", List.of("web1", "web9")))) {
            String type = (String) target.get(0);
            java.util.function.Predicate<String> compiled = resolver.expecting(type, target.get(1));
            assertThat(ids.stream().filter(compiled).toList()).as("%s", target)
                    .isEqualTo(ids.stream().filter(id -> resolver.expects(type, target.get(1), id)).toList())
                    .doesNotContain("web9", "ghost");
        }
        assertThatThrownBy(() -> resolver.expecting("nodegroup", "nosuchgroup")).isInstanceOf(InvalidTargetException.class);
    }

    @Test
    void resolvesAListAndReportsTheIdsThatAreNotAccepted() {
        TargetResolver.Resolution r = resolver.resolve("list", List.of("web1", "web9", "ghost"));

        assertThat(r.expected()).containsExactly("web1");
        assertThat(r.missing()).containsExactly("web9", "ghost");
        assertThat(resolver.resolve("list", "db1,ghost").missing()).containsExactly("ghost");
    }

    @Test
    void resolvesGrainTargetsAndLeavesMinionsWithoutGrainsUndecided() {
        TargetResolver.Resolution r = resolver.resolve("grain", "os:Debian");

        assertThat(r.expected()).containsExactly("db1", "db2", "web1");
        assertThat(r.undecided()).containsExactly("new1");
        assertThat(r.publishTo()).containsExactly("db1", "db2", "web1", "new1");
        assertThat(resolver.resolve("grain_pcre", "os:red").expected()).containsExactly("web2");
    }

    @Test
    void resolvesIpcidrTargetsFromTheIpv4Grain() {
        assertThat(resolver.resolve("ipcidr", "10.0.1.0/24").expected()).containsExactly("db1", "db2");
        assertThat(resolver.resolve("ipcidr", "127.0.0.1").expected()).containsExactly("db1", "web1", "web2");
        assertThat(resolver.resolve("ipcidr", "127.0.0.1").undecided()).containsExactly("new1");
    }

    @Test
    void resolvesCompoundTargetsUsingGrainsOnlyWhereNeeded() {
        TargetResolver.Resolution r = resolver.resolve("compound", "G@role:web and not L@web2");
        assertThat(r.expected()).containsExactly("web1");
        assertThat(r.undecided()).containsExactly("new1");

        TargetResolver.Resolution idFirst = resolver.resolve("compound", "web* and G@os:Debian");
        assertThat(idFirst.expected()).containsExactly("web1");
        assertThat(idFirst.undecided()).as("new1 fails web* whatever its grains").isEmpty();

        TargetResolver.Resolution grouped = resolver.resolve("compound", "( G@os:RedHat or db2 ) or new*");
        assertThat(grouped.expected()).containsExactly("db2", "new1", "web2");
        assertThat(grouped.undecided()).isEmpty();
        assertThat(resolver.resolve("compound", "L@db1,ghost or web1").missing()).containsExactly("ghost");
        assertThat(resolver.resolve("compound", "web1 and not L@ghost").missing()).isEmpty();
    }

    @Test
    void expandsNodegroupsIntoTheCompoundToPublish() {
        TargetResolver.Resolution r = resolver.resolve("nodegroup", "dbs");
        assertThat(r.tgtType()).isEqualTo("compound");
        assertThat(r.tgt()).isEqualTo("L@db1,db2,gone");
        assertThat(r.expected()).containsExactly("db1", "db2");
        assertThat(r.missing()).containsExactly("gone");

        TargetResolver.Resolution nested = resolver.resolve("compound", "N@all_but_dbs and not G@os:RedHat");
        assertThat(nested.tgt()).isEqualTo("( * and not L@db1,db2,gone ) and not G@os:RedHat");
        assertThat(nested.expected()).containsExactly("web1");
        assertThat(nested.undecided()).containsExactly("new1");

        TargetResolver.Resolution web = resolver.resolve("nodegroup", "web");
        assertThat(web.expected()).containsExactly("web1", "web2");
        assertThat(web.undecided()).containsExactly("new1");
    }

    @Test
    void readsTheNodegroupsOnEveryCallWhenGivenASupplier() {
        AtomicReference<Map<String, Object>> live = new AtomicReference<>(Map.of("g", "web1"));
        TargetResolver reloading = new TargetResolver(keys, data, live::get);
        assertThat(reloading.resolve("nodegroup", "g").expected()).containsExactly("web1");

        live.set(Map.of("g", "db*"));
        assertThat(reloading.resolve("nodegroup", "g").expected()).containsExactly("db1", "db2");
    }

    @Test
    void refusesInvalidTargetsWithTheReason() {
        assertThatThrownBy(() -> resolver.resolve("nodegroup", "nope")).isInstanceOf(InvalidTargetException.class)
                .hasMessageContaining("unknown nodegroup 'nope'");
        assertThatThrownBy(() -> resolver.resolve("compound", "web1 and ( db1")).isInstanceOf(InvalidTargetException.class)
                .hasMessageContaining("missing ')'");
        assertThatThrownBy(() -> resolver.resolve("ipcidr", "10.0.0.1/8")).isInstanceOf(InvalidTargetException.class);
        assertThatThrownBy(() -> resolver.resolve("pillar_exact", "role:web")).isInstanceOf(InvalidTargetException.class);
    }

    @Test
    void resolvesFromGrainsLoadedByAFreshCacheAfterARestart() {
        TargetResolver afterRestart = new TargetResolver(keys, new MinionDataCache(root.resolve("cache")), nodegroups);

        assertThat(afterRestart.resolve("grain", "role:db").expected()).containsExactly("db1", "db2");
        assertThat(afterRestart.resolve("grain", "role:db").undecided()).containsExactly("new1");
    }

    @Test
    void forgetsAMinionsGrainsSoItBecomesUndecided() {
        data.forget("web1");

        assertThat(resolver.resolve("grain", "role:web").expected()).containsExactly("web2");
        assertThat(resolver.resolve("grain", "role:web").undecided()).containsExactly("new1", "web1");
    }

    /** Grains anyone with the session key could have sent under web1's id must not hide web1 from a target. */
    @Test
    void unsignedGrainsPutAMinionInATargetButNeverLeaveItOut() {
        data.forget("web1");
        data.putGrains("web1", Map.of("role", "decoy", "os", "Debian"), false);

        TargetResolver.Resolution web = resolver.resolve("grain", "role:web");
        assertThat(web.expected()).containsExactly("web2");
        assertThat(web.undecided()).as("published to, not awaited").containsExactly("new1", "web1");
        assertThat(resolver.resolve("grain", "os:Debian").expected()).as("a match stays expected").contains("web1");
        assertThat(resolver.resolve("compound", "G@role:web and db*").undecided())
                .as("a target that leaves web1 out whatever its grains still does").doesNotContain("web1");
    }

    @Test
    void signedGrainsLeaveAMinionOutOfATarget() {
        assertThat(data.grainsVerified("db1")).isTrue();
        TargetResolver.Resolution web = resolver.resolve("grain", "role:web");

        assertThat(web.expected()).containsExactly("web1", "web2");
        assertThat(web.undecided()).containsExactly("new1");
    }
}
