package io.jsalt.master.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.crypto.RsaKeys;
import io.jsalt.master.jobs.pg.PgJson;
import java.security.KeyPair;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The cluster MAC: the same for a value as jsonb gives it back, different for anything else. */
class ClusterSealTest {
    static KeyPair masterKey;

    @BeforeAll
    static void keys() {
        masterKey = RsaKeys.generate(2048);
    }

    @Test
    void aValueReadBackFromJsonbReformattedHasTheSameMac() {
        ClusterSeal seal = new ClusterSeal(masterKey.getPrivate());
        Map<String, Object> written = new LinkedHashMap<>();
        written.put("zeta", 1.0E10);
        written.put("a", List.of(5.0, 7L, "x"));
        written.put("n", null);
        assertThat(PgJson.write(written)).as("a fraction in plain notation, which jsonb keeps")
                .isEqualTo("{\"zeta\":10000000000.0,\"a\":[5.0,7,\"x\"],\"n\":null}");
        // what PostgreSQL's jsonb prints for it: keys by length, fractions with the digits written
        Object readBack = PgJson.read("{\"a\": [5.00, 7, \"x\"], \"n\": null, \"zeta\": 10000000000.0}");
        byte[] mac = seal.mac("kind v1", "web1", PgJson.read(PgJson.write(written)), true, 5L);
        assertThat(seal.valid(mac, "kind v1", "web1", readBack, true, 5L)).isTrue();
    }

    @Test
    void anIntegerAndAFractionOfTheSameValueSealApart() {
        ClusterSeal seal = new ClusterSeal(masterKey.getPrivate());
        byte[] integer = seal.mac("kind v1", Map.of("num_cpus", 8L));
        assertThat(seal.valid(integer, "kind v1", Map.of("num_cpus", 8))).as("an integer of another width").isTrue();
        assertThat(seal.valid(integer, "kind v1", Map.of("num_cpus", 8.0))).isFalse();
        assertThat(seal.valid(integer, "kind v1", Map.of("num_cpus", new java.math.BigDecimal("8")))).isFalse();
        assertThat(seal.valid(integer, "kind v1", Map.of("num_cpus", "8"))).isFalse();
        byte[] fraction = seal.mac("kind v1", List.of(8.0, 0.5));
        assertThat(seal.valid(fraction, "kind v1", List.of(new java.math.BigDecimal("8.00"), 0.5f)))
                .as("one value of one kind, however many zeros").isTrue();
        assertThat(seal.valid(fraction, "kind v1", List.of(8L, 0.5))).isFalse();
    }

    @Test
    void anyChangedPartLabelOrKeyFails() {
        ClusterSeal seal = new ClusterSeal(masterKey.getPrivate());
        byte[] mac = seal.mac("kind v1", "web1", Map.of("role", "web"), true, 5L);
        assertThat(seal.valid(mac, "kind v1", "web1", Map.of("role", "web"), true, 5L)).isTrue();
        assertThat(seal.valid(mac, "kind v1", "web2", Map.of("role", "web"), true, 5L)).isFalse();
        assertThat(seal.valid(mac, "kind v1", "web1", Map.of("role", "db"), true, 5L)).isFalse();
        assertThat(seal.valid(mac, "kind v1", "web1", Map.of("role", "web"), false, 5L)).isFalse();
        assertThat(seal.valid(mac, "kind v1", "web1", Map.of("role", "web"), true, null)).isFalse();
        assertThat(seal.valid(mac, "kind v2", "web1", Map.of("role", "web"), true, 5L)).isFalse();
        assertThat(seal.valid(null, "kind v1", "web1", Map.of("role", "web"), true, 5L)).isFalse();
        // parts do not run into each other: ("ab", "c") is not ("a", "bc")
        assertThat(seal.valid(seal.mac("k", "ab", "c"), "k", "a", "bc")).isFalse();
        ClusterSeal otherCluster = new ClusterSeal(RsaKeys.generate(2048).getPrivate());
        assertThat(otherCluster.valid(mac, "kind v1", "web1", Map.of("role", "web"), true, 5L)).isFalse();
    }
}
