package io.jsalt.master.targeting;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.master.data.MinionDataCache;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.pillar.PillarCache;
import io.jsalt.master.support.TestKeys;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code -I} and {@code I@}: targets resolved over the pillar the master compiled for each minion. */
class PillarTargetResolverTest {
    @TempDir
    Path root;
    final MinionDataCache data = new MinionDataCache();
    final PillarCache pillars = new PillarCache();
    TargetResolver resolver;

    @BeforeEach
    void setUp() {
        KeyStore keys = new KeyStore(root.resolve("pki"));
        for (String id : List.of("web1", "web2", "db1", "salty", "fresh")) {
            keys.store(KeyState.ACCEPTED, id, TestKeys.pem(TestKeys.minion(0)));
        }
        pillars.put("web1", Map.of("role", "web", "tier", Map.of("name", "front")), true);
        pillars.put("web2", Map.of("role", "web"), true);
        pillars.put("db1", Map.of("role", "db"), true);
        pillars.put("salty", Map.of("role", "db"), false); // compiled from a salt-minion's unsigned grains
        data.putGrains("web1", Map.of("os", "Debian"));
        data.putGrains("web2", Map.of("os", "RedHat"));
        resolver = new TargetResolver(keys, data, pillars, Map::of);
    }

    @Test
    void aPillarTargetExpectsTheMinionsWhosePillarMatches() {
        TargetResolver.Resolution r = resolver.resolve("pillar", "role:web");
        assertThat(r.expected()).containsExactly("web1", "web2");
        assertThat(resolver.resolve("pillar", "tier:name:fr*").expected()).containsExactly("web1");
        // an unverified pillar may put a minion in a target (never take it out)
        assertThat(resolver.resolve("pillar_pcre", "role:d.").expected()).containsExactly("db1", "salty");
    }

    @Test
    void aMinionWithoutACompiledPillarOrWithAnUnverifiedOneIsUndecidedNotLeftOut() {
        TargetResolver.Resolution r = resolver.resolve("pillar", "role:web");
        assertThat(r.undecided()).containsExactlyInAnyOrder("fresh", "salty");
        assertThat(r.publishTo()).doesNotContain("db1");
    }

    @Test
    void compoundTargetsMixPillarAndGrains() {
        assertThat(resolver.resolve("compound", "I@role:web and G@os:Debian").expected()).containsExactly("web1");
        assertThat(resolver.resolve("compound", "I@role:web and web*").undecided()).isEmpty();
        assertThat(resolver.resolve("compound", "I@role:web and not G@os:Debian").expected()).containsExactly("web2");
    }

    @Test
    void aForgottenMinionsPillarNoLongerDecides() {
        pillars.forget("web1");
        assertThat(resolver.resolve("pillar", "role:web").expected()).containsExactly("web2");
        assertThat(resolver.resolve("pillar", "role:web").undecided()).contains("web1");
    }
}
