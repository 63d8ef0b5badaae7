package io.jsalt.master.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.WireException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MinionDataCacheTest {
    final MinionDataCache cache = new MinionDataCache();

    @TempDir
    Path cachedir;

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

    @Test
    void keepsGrainsAcrossInstancesInSaltsLayout() throws IOException {
        Map<String, Object> grains = new HashMap<>();
        grains.put("os", "Debian");
        grains.put("num_cpus", 4L);
        grains.put("ipv4", List.of("127.0.0.1"));
        grains.put("selinux", null);
        new MinionDataCache(cachedir).putGrains("web1", grains);

        MinionDataCache reopened = new MinionDataCache(cachedir);

        assertThat(reopened.grains("web1")).contains(grains);
        assertThat(reopened.ids()).containsExactly("web1");
        Path file = cachedir.resolve("minions/web1/data.p");
        assertThat(SaltPack.unpack(Files.readAllBytes(file))).isEqualTo(Map.of("grains", grains, "grains_verified", true));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent()))).isEqualTo("rwx------");
        try (var leftovers = Files.list(file.getParent())) {
            assertThat(leftovers).as("no temp file is left behind").containsExactly(file);
        }
    }

    @Test
    void forgetsAMinionOnDiskToo() {
        MinionDataCache durable = new MinionDataCache(cachedir);
        durable.putGrains("web1", Map.of("os", "Debian"));
        durable.putGrains("web2", Map.of("os", "Debian"));

        durable.forget("web1");

        assertThat(cachedir.resolve("minions/web1")).doesNotExist();
        assertThat(new MinionDataCache(cachedir).ids()).containsExactly("web2");
    }

    @Test
    void logsAndIgnoresACorruptOrStrangeFileAndLoadsTheRest() throws IOException {
        MinionDataCache first = new MinionDataCache(cachedir);
        first.putGrains("good", Map.of("os", "Debian"));
        first.putGrains("corrupt", Map.of("os", "Debian"));
        first.putGrains("nograins", Map.of("os", "Debian"));
        Files.write(cachedir.resolve("minions/corrupt/data.p"), new byte[] {(byte) 0xc1, 1, 2});
        Files.write(cachedir.resolve("minions/nograins/data.p"), SaltPack.pack(Map.of("pillar", Map.of())));
        Files.createDirectories(cachedir.resolve("minions/empty"));
        Files.createDirectories(cachedir.resolve("minions/.hidden"));
        Files.writeString(cachedir.resolve("minions/stray-file"), "x");

        MinionDataCache reopened = new MinionDataCache(cachedir);

        assertThat(reopened.ids()).containsExactly("good");
        reopened.putGrains("corrupt", Map.of("os", "Alpine"));
        assertThat(new MinionDataCache(cachedir).grains("corrupt")).contains(Map.of("os", "Alpine"));
    }

    @Test
    void retainsOnlyTheMinionsItIsToldToKeep() {
        MinionDataCache durable = new MinionDataCache(cachedir);
        durable.putGrains("kept", Map.of("os", "Debian"));
        durable.putGrains("deleted", Map.of("os", "Debian"));

        durable.retainOnly("kept"::equals);

        assertThat(durable.ids()).containsExactly("kept");
        assertThat(new MinionDataCache(cachedir).ids()).containsExactly("kept");
    }

    @Test
    void neverBuildsAPathFromAnInvalidId() {
        MinionDataCache durable = new MinionDataCache(cachedir);

        assertThatThrownBy(() -> durable.putGrains("../escape", Map.of("os", "x"))).isInstanceOf(WireException.class);
        durable.forget("../escape");
        assertThat(cachedir.resolve("escape")).doesNotExist();
        assertThat(durable.grains("../escape")).isEmpty();
    }

    @Test
    void remembersWhetherGrainsWereSignedAcrossARestart() {
        MinionDataCache first = new MinionDataCache(cachedir);
        first.putGrains("signed", Map.of("os", "Debian"), true);
        first.putGrains("unsigned", Map.of("os", "Debian"), false);

        MinionDataCache restarted = new MinionDataCache(cachedir);

        assertThat(restarted.grainsVerified("signed")).isTrue();
        assertThat(restarted.grainsVerified("unsigned")).isFalse();
        assertThat(restarted.grains("unsigned")).contains(Map.of("os", "Debian"));
        assertThat(restarted.grainsVerified("unknown")).isFalse();
    }

    @Test
    void unsignedGrainsNeverReplaceSignedOnes() {
        cache.putGrains("web1", Map.of("role", "web"), true);

        assertThat(cache.putGrains("web1", Map.of("role", "decoy"), false)).isFalse();

        assertThat(cache.grains("web1")).contains(Map.of("role", "web"));
        assertThat(cache.grainsVerified("web1")).isTrue();
        assertThat(cache.putGrains("web1", Map.of("role", "db"), true)).isTrue();
        assertThat(cache.grains("web1")).contains(Map.of("role", "db"));
    }

    @Test
    void refusesGrainsLargerThanOneMebibyteAndKeepsTheOldOnes() {
        cache.putGrains("web1", Map.of("os", "Debian"), false);

        boolean stored = cache.putGrains("web1", Map.of("blob", "x".repeat(MinionDataCache.MAX_GRAINS_BYTES)), false);

        assertThat(stored).isFalse();
        assertThat(cache.grains("web1")).contains(Map.of("os", "Debian"));
    }

    @Test
    void refusesGrainsNestedTooDeep() {
        Object nested = "leaf";
        for (int i = 0; i < MinionDataCache.MAX_DEPTH + 1; i++) {
            nested = (i % 2 == 0) ? Map.of("k", nested) : List.of(nested);
        }

        assertThat(cache.putGrains("web1", Map.of("deep", nested), true)).isFalse();
        assertThat(cache.grains("web1")).isEmpty();

        Object shallow = "leaf";
        for (int i = 0; i < MinionDataCache.MAX_DEPTH - 1; i++) {
            shallow = Map.of("k", shallow);
        }
        assertThat(cache.putGrains("web1", Map.of("deep", shallow), true)).isTrue();
    }

    @Test
    void signedGrainsOnlyMoveForwardAcrossRestarts() {
        MinionDataCache durable = new MinionDataCache(cachedir);
        assertThat(durable.putGrains("web1", Map.of("role", "patchme"), true, 2_000L)).isTrue();

        assertThat(durable.putGrains("web1", Map.of("role", "old"), true, 1_000L)).isFalse();
        assertThat(durable.putGrains("web1", Map.of("role", "unstamped"), true, null)).isFalse();
        assertThat(durable.grains("web1")).contains(Map.of("role", "patchme"));

        MinionDataCache reopened = new MinionDataCache(cachedir);
        assertThat(reopened.putGrains("web1", Map.of("role", "old"), true, 1_000L)).isFalse();
        assertThat(reopened.putGrains("web1", Map.of("role", "newer"), true, 3_000L)).isTrue();
        assertThat(reopened.grains("web1")).contains(Map.of("role", "newer"));
    }
}
