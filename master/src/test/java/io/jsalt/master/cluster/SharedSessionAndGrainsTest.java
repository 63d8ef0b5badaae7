package io.jsalt.master.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.jsalt.crypto.RsaKeys;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.session.SessionKey;
import io.jsalt.master.targeting.TargetResolver;
import io.jsalt.master.testing.PgCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The session key and the grains of two masters of one cluster, on a real PostgreSQL. */
class SharedSessionAndGrainsTest {
    static PgCluster pg;
    static KeyPair masterKey;

    @TempDir
    Path tmp;

    @BeforeAll
    static void start() {
        pg = PgCluster.start();
        masterKey = RsaKeys.generate(2048);
    }

    @AfterAll
    static void stop() {
        pg.close();
    }

    @Test
    void bothMastersUseOneSessionKeyAndARotationOnEitherReachesTheOther() {
        String db = pg.createDatabase();
        SessionKey k1 = new SessionKey();
        SessionKey k2 = new SessionKey();
        try (ClusterState m1 = ClusterFixture.join(pg, db, tmp.resolve("m1"), 42001, masterKey, k1);
             ClusterState m2 = ClusterFixture.join(pg, db, tmp.resolve("m2"), 42011, masterKey, k2)) {
            assertThat(k2.keyString()).isEqualTo(k1.keyString());
            String first = k1.keyString();

            k2.rotate("a minion key was deleted or rejected"); // as the master does when a key is revoked on m2

            await().atMost(Duration.ofSeconds(10)).until(() -> !k1.keyString().equals(first));
            assertThat(k1.keyString()).isEqualTo(k2.keyString());
            assertThat(m1.session().generation()).isEqualTo(m2.session().generation()).isEqualTo(2);

            k1.rotate("again, from m1");
            await().atMost(Duration.ofSeconds(10)).until(() -> m2.session().generation() == 3);
            assertThat(k2.keyString()).isEqualTo(k1.keyString());
        }
    }

    @Test
    void theDatabaseHoldsTheSessionKeyOnlySealedToTheMasterKey() throws Exception {
        String db = pg.createDatabase();
        SessionKey k1 = new SessionKey();
        try (ClusterState m1 = ClusterFixture.join(pg, db, tmp.resolve("m1"), 42021, masterKey, k1)) {
            byte[] plain = k1.keyString().getBytes(StandardCharsets.US_ASCII);
            try (Connection c = pg.connect(db); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT sealed, sig FROM jsalt_session_keys")) {
                assertThat(rs.next()).isTrue();
                byte[] sealed = rs.getBytes(1);
                assertThat(new String(sealed, StandardCharsets.ISO_8859_1)).doesNotContain(new String(plain, StandardCharsets.ISO_8859_1));
                assertThat(new MasterSeal(masterKey).open(sealed)).isEqualTo(plain);
            }
        }
    }

    @Test
    void aSessionKeyWrittenByAnyoneButAMasterIsNotUsed() throws Exception {
        String db = pg.createDatabase();
        SessionKey k1 = new SessionKey();
        try (ClusterState m1 = ClusterFixture.join(pg, db, tmp.resolve("m1"), 42031, masterKey, k1)) {
            String before = k1.keyString();
            // sealed to the master's public key (anyone can do that) but signed with another key
            MasterSeal intruder = new MasterSeal(new KeyPair(masterKey.getPublic(), RsaKeys.generate(2048).getPrivate()));
            byte[] sealed = intruder.seal(io.jsalt.crypto.Crypticle.generateKeyString().getBytes(StandardCharsets.US_ASCII));
            byte[] sig = intruder.sign("jsalt session key v1", java.nio.ByteBuffer.allocate(8).putLong(99).array(), sealed);
            try (Connection c = pg.connect(db); java.sql.PreparedStatement s = c.prepareStatement(
                    "INSERT INTO jsalt_session_keys (generation, sealed, sig, reason, master_id) VALUES (99, ?, ?, 'forged', 'sql');"
                            + " SELECT pg_notify('jsalt_session', '99')")) {
                s.setBytes(1, sealed);
                s.setBytes(2, sig);
                s.execute();
            }
            m1.session().changed("99"); // as the NOTIFY would: the forged generation is read, and refused

            assertThat(k1.keyString()).isEqualTo(before);
            assertThat(m1.session().generation()).isEqualTo(1);
        }
    }

    @Test
    void whileTheDatabaseIsAwayKeysAreServedChangesRefusedAndARevocationRotatesHereThenEverywhere() {
        String db = pg.createDatabase();
        SessionKey k1 = new SessionKey();
        SessionKey k2 = new SessionKey();
        String pem = RsaKeys.publicKeyPem(RsaKeys.generate(2048).getPublic());
        try (ClusterState m1 = ClusterFixture.join(pg, db, tmp.resolve("m1"), 42121, masterKey, k1);
             ClusterState m2 = ClusterFixture.join(pg, db, tmp.resolve("m2"), 42131, masterKey, k2)) {
            m1.keys().store(KeyState.ACCEPTED, "web1", pem);
            await().atMost(Duration.ofSeconds(10)).until(() -> m2.keys().acceptedKey("web1").isPresent());
            pg.stopServer();
            try {
                assertThat(m1.keys().acceptedKey("web1")).isPresent(); // served from memory
                assertThat(m1.keys().list(KeyState.ACCEPTED)).containsExactly("web1");
                assertThatThrownBy(() -> m1.keys().store(KeyState.PENDING,
                        "web2", pem)).isInstanceOf(ClusterException.class).hasMessageContaining("unreachable");
                assertThat(m1.keys().stateOf("web2")).isEmpty();
                String before = k1.keyString();
                k1.rotate("a minion key was deleted or rejected");
                assertThat(k1.keyString()).as("rotated on this master at once").isNotEqualTo(before);
                assertThat(k2.keyString()).isEqualTo(before);
            } finally {
                pg.startServer();
            }
            // once the database is back, the rotation owed is made for the cluster, and m2 adopts it
            await().atMost(Duration.ofSeconds(30)).until(() -> m2.session().generation() == 2 && k1.keyString().equals(k2.keyString()));
            assertThat(m1.session().generation()).isEqualTo(2);
            assertThat(m1.keys().storeIfNew(KeyState.PENDING, "web2", pem)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> m2.keys().stateOf("web2").isPresent());
        }
    }

    @Test
    void scheduledRotationsOfTwoMastersMakeOneNewKey() {
        String db = pg.createDatabase();
        SessionKey k1 = new SessionKey();
        SessionKey k2 = new SessionKey();
        try (ClusterState m1 = ClusterFixture.join(pg, db, tmp.resolve("m1"), 42041, masterKey, k1);
             ClusterState m2 = ClusterFixture.join(pg, db, tmp.resolve("m2"), 42051, masterKey, k2)) {
            k1.rotateScheduled(Duration.ofMillis(1), "publish_session on m1");
            k2.rotateScheduled(Duration.ofHours(24), "publish_session on m2, just after");
            assertThat(m2.session().generation()).isEqualTo(2);
            await().atMost(Duration.ofSeconds(10)).until(() -> m1.session().generation() == 2);
            assertThat(k1.keyString()).isEqualTo(k2.keyString());
        }
    }

    @Test
    void grainsReportedToOneMasterAreKnownToTheOtherAndSignedOnesOnlyMoveForward() {
        String db = pg.createDatabase();
        try (ClusterState m1 = ClusterFixture.join(pg, db, tmp.resolve("m1"), 42061, masterKey, new SessionKey());
             ClusterState m2 = ClusterFixture.join(pg, db, tmp.resolve("m2"), 42071, masterKey, new SessionKey())) {
            Map<String, Object> grains = Map.of("os", "Debian", "roles", List.of("web", "db"), "cpus", 4L);
            assertThat(m1.grains().putGrains("web1", grains, true, 1_000L)).isTrue();

            await().atMost(Duration.ofSeconds(10)).until(() -> m2.grains().grains("web1").isPresent());
            assertThat(m2.grains().grains("web1")).contains(grains);
            assertThat(m2.grains().grainsVerified("web1")).isTrue();

            // unsigned grains, or signed ones older than those known, sent to the other master do not replace them
            assertThat(m2.grains().putGrains("web1", Map.of("os", "forged"), false, null)).isFalse();
            assertThat(m1.grains().putGrains("web1", Map.of("os", "replayed"), true, 999L)).isFalse();
            assertThat(m2.grains().grains("web1")).contains(grains);

            assertThat(m2.grains().putGrains("web1", Map.of("os", "Debian", "cpus", 8L), true, 2_000L)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> m1.grains().grains("web1").orElseThrow().get("cpus").equals(8L));

            m2.grains().forget("web1");
            await().atMost(Duration.ofSeconds(10)).until(() -> m1.grains().grains("web1").isEmpty());
        }
    }

    @Test
    void grainsWrittenIntoTheDatabaseByAnythingButAMasterAreNeitherTargetedNorVerified() throws Exception {
        String db = pg.createDatabase();
        String pem = RsaKeys.publicKeyPem(RsaKeys.generate(2048).getPublic());
        try (ClusterState m1 = ClusterFixture.join(pg, db, tmp.resolve("m1"), 42161, masterKey, new SessionKey());
             ClusterState m2 = ClusterFixture.join(pg, db, tmp.resolve("m2"), 42171, masterKey, new SessionKey())) {
            m1.keys().store(KeyState.ACCEPTED, "web1", pem);
            m1.keys().store(KeyState.ACCEPTED, "web2", pem);
            assertThat(m1.grains().putGrains("web1", Map.of("role", "web"), true, 1_000L)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> m2.grains().grains("web1").isPresent()
                    && m2.keys().acceptedKey("web2").isPresent());

            // a writer without master.pem: web1's row changed in place (its seal no longer fits), web2's made up
            try (Connection c = pg.connect(db); Statement s = c.createStatement()) {
                s.execute("UPDATE jsalt_minion_data SET grains = '{\"role\": \"forged\"}', stamp = 5000 WHERE id = 'web1';"
                        + " INSERT INTO jsalt_minion_data (id, grains, verified, stamp, master_id, mac)"
                        + " VALUES ('web2', '{\"role\": \"forged\"}', true, 5000, 'sql', '\\x00112233');"
                        + " SELECT pg_notify('jsalt_minion_data', 'web1'), pg_notify('jsalt_minion_data', 'web2')");
            }
            // a master's change after both: once m2 has it, it has read the forged rows
            assertThat(m1.grains().putGrains("marker", Map.of("role", "marker"), false, null)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> m2.grains().grains("marker").isPresent());

            for (ClusterState m : List.of(m1, m2)) {
                assertThat(m.grains().grains("web1")).isEmpty();
                assertThat(m.grains().grainsVerified("web1")).isFalse();
                assertThat(m.grains().grains("web2")).isEmpty();
                assertThat(m.grains().grainsVerified("web2")).isFalse();
                TargetResolver targets = new TargetResolver(m.keys(), m.grains(), Map.of());
                assertThat(targets.resolve("grain", "role:forged").expected()).isEmpty();
            }
            try (ClusterState m3 = ClusterFixture.join(pg, db, tmp.resolve("m3"), 42181, masterKey, new SessionKey())) {
                assertThat(m3.grains().grains("marker")).isPresent(); // read whole at start: only the sealed row
                assertThat(m3.grains().grains("web1")).isEmpty();
                assertThat(m3.grains().grains("web2")).isEmpty();
            }

            // web1's next signed report replaces the forged row, though the row claims a later stamp
            assertThat(m2.grains().putGrains("web1", Map.of("role", "web", "n", 2L), true, 2_000L)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> m1.grains().grains("web1").map(g -> g.containsKey("n")).orElse(false));
            assertThat(m1.grains().grainsVerified("web1")).isTrue();
            assertThat(new TargetResolver(m1.keys(), m1.grains(), Map.of()).resolve("grain", "role:web").expected())
                    .containsExactly("web1");
        }
    }

    @Test
    void grainsKeepTheKindOfTheirNumbersAndAnIntegerMadeAFractionWithSqlIsNotBelieved() throws Exception {
        String db = pg.createDatabase();
        try (ClusterState m1 = ClusterFixture.join(pg, db, tmp.resolve("m1"), 42211, masterKey, new SessionKey());
             ClusterState m2 = ClusterFixture.join(pg, db, tmp.resolve("m2"), 42221, masterKey, new SessionKey())) {
            Map<String, Object> grains = Map.of("num_cpus", 8L, "big", 1.0E10, "small", 1.5E-7, "ratio", 8.0);
            assertThat(m1.grains().putGrains("web1", grains, true, 1_000L)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> m2.grains().grains("web1").isPresent());
            // through jsonb and back, each number is still the kind it was (1.0E10 is not the integer 10000000000)
            assertThat(m2.grains().grains("web1")).contains(grains);
            assertThat(m2.grains().grainsVerified("web1")).isTrue();

            // a writer without master.pem makes the integer 8 the fraction 8.0, the same value: the seal tells them apart
            try (Connection c = pg.connect(db); Statement s = c.createStatement()) {
                s.execute("UPDATE jsalt_minion_data SET grains = jsonb_set(grains, '{num_cpus}', '8.0') WHERE id = 'web1';"
                        + " SELECT pg_notify('jsalt_minion_data', 'web1')");
            }
            assertThat(m1.grains().putGrains("marker", Map.of("role", "marker"), false, null)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> m2.grains().grains("marker").isPresent());
            assertThat(m2.grains().grains("web1")).isEmpty();
            try (ClusterState m3 = ClusterFixture.join(pg, db, tmp.resolve("m3"), 42231, masterKey, new SessionKey())) {
                assertThat(m3.grains().grains("marker")).isPresent();
                assertThat(m3.grains().grains("web1")).isEmpty();
            }
        }
    }

    @Test
    void anEarlierSealedGrainsRowPutBackInTheDatabaseIsNotBelievedByAMasterThatSawANewerOne() throws Exception {
        String db = pg.createDatabase();
        try (ClusterState m1 = ClusterFixture.join(pg, db, tmp.resolve("m1"), 42241, masterKey, new SessionKey());
             ClusterState m2 = ClusterFixture.join(pg, db, tmp.resolve("m2"), 42251, masterKey, new SessionKey());
             Connection c = pg.connect(db); Statement sql = c.createStatement()) {
            assertThat(m1.grains().putGrains("web1", Map.of("role", "web", "n", 1L), true, 1_000L)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> m2.grains().grains("web1").isPresent());
            sql.execute("CREATE TABLE old_row AS SELECT * FROM jsalt_minion_data WHERE id = 'web1'"); // a writer keeps a copy
            Map<String, Object> newer = Map.of("role", "db", "n", 2L);
            assertThat(m1.grains().putGrains("web1", newer, true, 2_000L)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> m2.grains().grains("web1").equals(java.util.Optional.of(newer)));

            // the earlier row, sealed by a master, copied back over the newer one
            sql.execute("UPDATE jsalt_minion_data d SET grains = o.grains, stamp = o.stamp, mac = o.mac FROM old_row o"
                    + " WHERE d.id = o.id; SELECT pg_notify('jsalt_minion_data', 'web1')");
            awaitMarker(m1, m2, "marker1");
            for (ClusterState m : List.of(m1, m2)) {
                assertThat(m.grains().grains("web1")).contains(newer);
            }

            // deleted, then put back in a second step: gone, but not back to the earlier grains
            sql.execute("DELETE FROM jsalt_minion_data WHERE id = 'web1'; SELECT pg_notify('jsalt_minion_data', 'web1')");
            await().atMost(Duration.ofSeconds(10)).until(() -> m2.grains().grains("web1").isEmpty());
            sql.execute("INSERT INTO jsalt_minion_data SELECT * FROM old_row; SELECT pg_notify('jsalt_minion_data', 'web1')");
            awaitMarker(m1, m2, "marker2");
            assertThat(m2.grains().grains("web1")).isEmpty();
            assertThat(m1.grains().grains("web1")).isEmpty();
            // the limit: a master started afterwards has seen nothing newer, and believes the sealed row
            try (ClusterState m3 = ClusterFixture.join(pg, db, tmp.resolve("m3"), 42261, masterKey, new SessionKey())) {
                assertThat(m3.grains().grains("web1")).contains(Map.of("role", "web", "n", 1L));
            }

            // the minion's next report moves every master forward again
            Map<String, Object> next = Map.of("role", "db", "n", 3L);
            assertThat(m2.grains().putGrains("web1", next, true, 3_000L)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> m1.grains().grains("web1").equals(java.util.Optional.of(next)));
        }
    }

    /** A master's change after the SQL before it: once both masters have it, they have read what came before. */
    private static void awaitMarker(ClusterState m1, ClusterState m2, String id) {
        assertThat(m1.grains().putGrains(id, Map.of("role", "marker"), false, null)).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> m2.grains().grains(id).isPresent() && m1.grains().grains(id).isPresent());
    }

    @Test
    void signedUnstampedGrainsReadBackFromTheDatabaseStayUnstamped() {
        String db = pg.createDatabase();
        try (ClusterState m1 = ClusterFixture.join(pg, db, tmp.resolve("m1"), 42141, masterKey, new SessionKey());
             ClusterState m2 = ClusterFixture.join(pg, db, tmp.resolve("m2"), 42151, masterKey, new SessionKey())) {
            assertThat(m1.grains().putGrains("web1", Map.of("role", "web"), true, null)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> m2.grains().grains("web1").isPresent());
            // the same minion's next signed report, unstamped as before: m1 takes it (its copy has no stamp)...
            assertThat(m1.grains().putGrains("web1", Map.of("role", "web", "n", 2), true, null)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> m2.grains().grains("web1").get().containsKey("n"));
            // ...and m2, which read the row back, takes the third as well: a NULL stamp is not read as 0
            assertThat(m2.grains().putGrains("web1", Map.of("role", "db", "n", 3), true, null)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> "db".equals(m1.grains().grains("web1").get().get("role")));
        }
    }

    @Test
    void presenceWrittenOrFreshenedInTheDatabaseWithoutTheMasterKeyDoesNotCount() throws Exception {
        String db = pg.createDatabase();
        Duration fresh = Duration.ofMinutes(3);
        try (ClusterState m1 = ClusterFixture.join(pg, db, tmp.resolve("m1"), 42191, masterKey, new SessionKey());
             ClusterState m2 = ClusterFixture.join(pg, db, tmp.resolve("m2"), 42201, masterKey, new SessionKey())) {
            m1.presence().publish(Set.of("web1"));
            m2.presence().publish(Set.of("web2"), Instant.now().minus(Duration.ofMinutes(10))); // gone long ago
            assertThat(m2.presence().elsewhere(fresh)).containsExactly("web1");
            assertThat(m1.presence().elsewhere(fresh)).isEmpty();
            try (Connection c = pg.connect(db); Statement s = c.createStatement()) {
                // a made-up master's row, web2's old row made fresh, and web1's seal moved onto another id
                s.execute("INSERT INTO jsalt_presence (id, master_id, seen) VALUES ('web9', 'ghost_master:4506', now());"
                        + " UPDATE jsalt_presence SET seen = now() WHERE id = 'web2';"
                        + " INSERT INTO jsalt_presence (id, master_id, seen, mac) SELECT 'web3', master_id, seen, mac"
                        + " FROM jsalt_presence WHERE id = 'web1'");
            }
            assertThat(m2.presence().elsewhere(fresh)).containsExactly("web1");
            assertThat(m1.presence().elsewhere(fresh)).isEmpty();
            assertThat(rows(db, "SELECT count(*) FROM jsalt_presence")).isEqualTo(4);
        }
    }

    @Test
    void anEarlierSealedPresenceRowPutBackOverANewerOneDoesNotCount() throws Exception {
        String db = pg.createDatabase();
        Duration fresh = Duration.ofMinutes(3);
        try (ClusterState m1 = ClusterFixture.join(pg, db, tmp.resolve("m1"), 42271, masterKey, new SessionKey());
             ClusterState m2 = ClusterFixture.join(pg, db, tmp.resolve("m2"), 42281, masterKey, new SessionKey());
             Connection c = pg.connect(db); Statement sql = c.createStatement()) {
            m1.presence().publish(Set.of("web1"), Instant.now().minus(Duration.ofSeconds(60)));
            assertThat(m2.presence().elsewhere(fresh)).containsExactly("web1");
            sql.execute("CREATE TABLE old_presence AS SELECT * FROM jsalt_presence"); // a writer keeps a copy
            m1.presence().publish(Set.of("web1"));
            assertThat(m2.presence().elsewhere(fresh)).containsExactly("web1");
            m1.presence().publish(Set.of()); // web1 left m1
            assertThat(m2.presence().elsewhere(fresh)).isEmpty();

            // the earlier row, still within its freshness and sealed by m1, put back
            sql.execute("INSERT INTO jsalt_presence SELECT * FROM old_presence");
            assertThat(m2.presence().elsewhere(fresh)).isEmpty();
            // the limit: a master that never read a newer row believes it, until it is stale
            try (ClusterState m3 = ClusterFixture.join(pg, db, tmp.resolve("m3"), 42291, masterKey, new SessionKey())) {
                assertThat(m3.presence().elsewhere(fresh)).containsExactly("web1");
            }
        }
    }

    @Test
    void whatOneMasterSeesPresentTheOtherSeesUntilItIsStaleOrWithdrawn() throws Exception {
        String db = pg.createDatabase();
        Duration fresh = Duration.ofMinutes(3);
        try (ClusterState m2 = ClusterFixture.join(pg, db, tmp.resolve("m2"), 42111, masterKey, new SessionKey())) {
            try (ClusterState m1 = ClusterFixture.join(pg, db, tmp.resolve("m1"), 42101, masterKey, new SessionKey())) {
                m1.presence().publish(Set.of("web1", "web2"));
                assertThat(m2.presence().elsewhere(fresh)).containsExactly("web1", "web2");
                assertThat(m1.presence().elsewhere(fresh)).as("a master's own rows are not 'elsewhere'").isEmpty();

                m1.presence().publish(Set.of("web2"));
                assertThat(m2.presence().elsewhere(fresh)).containsExactly("web2");
                m1.presence().publish(Set.of("web2"), Instant.now().minus(Duration.ofMinutes(10))); // m1 died long ago
                assertThat(m2.presence().elsewhere(fresh)).isEmpty();
                m1.presence().publish(Set.of("web2"));
                assertThat(m2.presence().elsewhere(fresh)).containsExactly("web2");
            }
            // m1 stopped cleanly: its minions no longer count as present through it
            assertThat(m2.presence().elsewhere(fresh)).isEmpty();
        }
    }

    @Test
    void aRaceOfTwoMastersOverOneMinionsGrainsKeepsTheNewestSigned() throws Exception {
        String db = pg.createDatabase();
        try (ClusterState m1 = ClusterFixture.join(pg, db, tmp.resolve("m1"), 42081, masterKey, new SessionKey());
             ClusterState m2 = ClusterFixture.join(pg, db, tmp.resolve("m2"), 42091, masterKey, new SessionKey())) {
            List<Thread> threads = new ArrayList<>();
            for (ClusterState m : List.of(m1, m2)) {
                Thread t = new Thread(() -> {
                    for (long stamp = 1; stamp <= 100; stamp++) {
                        m.grains().putGrains("busy", Map.of("stamp", stamp), true, stamp);
                    }
                });
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join(60_000);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> m1.grains().grains("busy").orElseThrow().get("stamp").equals(100L)
                    && m2.grains().grains("busy").orElseThrow().get("stamp").equals(100L));
        }
    }

    private static long rows(String db, String sql) throws Exception {
        try (Connection c = pg.connect(db); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
