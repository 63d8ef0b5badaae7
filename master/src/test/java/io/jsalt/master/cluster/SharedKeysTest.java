package io.jsalt.master.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.jsalt.crypto.RsaKeys;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.keys.MinionKeys;
import io.jsalt.master.request.MinionTrust;
import io.jsalt.master.session.SessionKey;
import io.jsalt.master.testing.PgCluster;
import io.jsalt.transport.codec.WireException;
import java.nio.file.Path;
import java.security.KeyPair;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The minions' keys of two masters of one cluster, on a real PostgreSQL. */
class SharedKeysTest {
    static PgCluster pg;
    static KeyPair masterKey;
    static String minionPem;
    static String otherPem;

    @TempDir
    Path tmp;

    @BeforeAll
    static void start() {
        pg = PgCluster.start();
        masterKey = RsaKeys.generate(2048);
        minionPem = RsaKeys.publicKeyPem(RsaKeys.generate(2048).getPublic());
        otherPem = RsaKeys.publicKeyPem(RsaKeys.generate(2048).getPublic());
    }

    @AfterAll
    static void stop() {
        pg.close();
    }

    private ClusterState master(String db, String name, int port) {
        return ClusterFixture.join(pg, db, tmp.resolve(name), port, masterKey, new SessionKey());
    }

    @Test
    void aKeyPendingOnOneMasterAndAcceptedOnTheOtherIsAcceptedOnBothWithTheSameLists() {
        String db = pg.createDatabase();
        try (ClusterState m1 = master(db, "m1", 41001); ClusterState m2 = master(db, "m2", 41011)) {
            assertThat(m1.keys().storeIfNew(KeyState.PENDING, "web1", minionPem)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> m2.keys().stateOf("web1").orElse(null) == KeyState.PENDING);

            assertThat(m2.keys().move("web1", KeyState.PENDING, KeyState.ACCEPTED)).isTrue();

            await().atMost(Duration.ofSeconds(10)).until(() -> m1.keys().stateOf("web1").orElse(null) == KeyState.ACCEPTED);
            assertThat(m1.keys().acceptedKey("web1")).contains(RsaKeys.parsePublicKey(minionPem));
            assertThat(m1.keys().listAll()).isEqualTo(m2.keys().listAll());
            assertThat(m1.keys().list(KeyState.ACCEPTED)).containsExactly("web1");
            assertThat(m1.keys().list(KeyState.PENDING)).isEmpty();
        }
    }

    @Test
    void twoMastersSeeingOneNewMinionAtOnceWriteItOnce() throws Exception {
        String db = pg.createDatabase();
        try (ClusterState m1 = master(db, "m1", 41021); ClusterState m2 = master(db, "m2", 41031)) {
            int ids = 40;
            int[] firsts = new int[ids];
            ExecutorService both = Executors.newFixedThreadPool(2);
            try {
                for (int i = 0; i < ids; i++) {
                    String id = "new" + i;
                    CyclicBarrier together = new CyclicBarrier(2);
                    Future<Boolean> a = both.submit(() -> {
                        together.await();
                        return m1.keys().storeIfNew(KeyState.PENDING, id, minionPem);
                    });
                    Future<Boolean> b = both.submit(() -> {
                        together.await();
                        return m2.keys().storeIfNew(KeyState.PENDING, id, minionPem);
                    });
                    firsts[i] = (a.get() ? 1 : 0) + (b.get() ? 1 : 0);
                }
            } finally {
                both.shutdownNow();
            }
            assertThat(firsts).containsOnly(1);
            assertThat(rows(db, "SELECT count(*) FROM jsalt_keys")).isEqualTo(ids);
            await().atMost(Duration.ofSeconds(10)).until(() -> m1.keys().list(KeyState.PENDING).size() == ids
                    && m2.keys().list(KeyState.PENDING).size() == ids);
        }
    }

    @Test
    void anAcceptAndARejectOfOnePendingKeyOnTwoMastersAtOnceEndInOneStateOnBoth() throws Exception {
        String db = pg.createDatabase();
        try (ClusterState m1 = master(db, "m1", 41041); ClusterState m2 = master(db, "m2", 41051)) {
            int ids = 30;
            for (int i = 0; i < ids; i++) {
                m1.keys().store(KeyState.PENDING, "race" + i, minionPem);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> m2.keys().list(KeyState.PENDING).size() == ids);
            ExecutorService both = Executors.newFixedThreadPool(2);
            List<String> winners = new ArrayList<>();
            try {
                for (int i = 0; i < ids; i++) {
                    String id = "race" + i;
                    CyclicBarrier together = new CyclicBarrier(2);
                    Future<Boolean> accept = both.submit(() -> {
                        together.await();
                        return m2.keys().move(id, KeyState.PENDING, KeyState.ACCEPTED);
                    });
                    Future<Boolean> reject = both.submit(() -> {
                        together.await();
                        return m1.keys().move(id, KeyState.PENDING, KeyState.REJECTED);
                    });
                    boolean accepted = accept.get();
                    boolean rejected = reject.get();
                    assertThat(accepted ^ rejected).as(id + ": exactly one of accept and reject happens").isTrue();
                    winners.add(accepted ? "accepted" : "rejected");
                }
            } finally {
                both.shutdownNow();
            }
            assertThat(rows(db, "SELECT count(*) FROM jsalt_keys")).isEqualTo(ids);
            await().atMost(Duration.ofSeconds(10)).until(() -> m1.keys().listAll().equals(m2.keys().listAll()));
            for (int i = 0; i < ids; i++) {
                assertThat(m1.keys().stateOf("race" + i).orElseThrow().label()).isEqualTo(winners.get(i));
            }
        }
    }

    @Test
    void aKeyDeletedOnOneMasterIsForgottenOnTheOtherWhichIsTold() {
        String db = pg.createDatabase();
        try (ClusterState m1 = master(db, "m1", 41061); ClusterState m2 = master(db, "m2", 41071)) {
            List<String> revoked = new CopyOnWriteArrayList<>();
            m2.keys().whenRevokedElsewhere(revoked::add);
            m1.keys().store(KeyState.ACCEPTED, "db1", minionPem);
            await().atMost(Duration.ofSeconds(10)).until(() -> m2.keys().acceptedKey("db1").isPresent());

            assertThat(m1.keys().delete("db1")).containsExactly(KeyState.ACCEPTED);

            await().atMost(Duration.ofSeconds(10)).until(() -> m2.keys().stateOf("db1").isEmpty());
            assertThat(m2.keys().acceptedKey("db1")).isEmpty();
            assertThat(revoked).containsExactly("db1");
        }
    }

    @Test
    void rowsHeardBeforeThisMastersOwnLaterChangeDoNotUndoIt() throws Exception {
        String db = pg.createDatabase();
        try (ClusterState m1 = master(db, "m1", 41201)) {
            List<String> revoked = new CopyOnWriteArrayList<>();
            m1.keys().whenRevokedElsewhere(revoked::add);
            m1.keys().store(KeyState.PENDING, "web1", minionPem);
            // the listening thread reads web1's rows for the NOTIFY of that store (pending); before it holds them,
            // an operator's accept on another thread commits and is held; then the listener's older rows arrive
            CyclicBarrier read = new CyclicBarrier(2);
            CyclicBarrier accepted = new CyclicBarrier(2);
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                Future<?> listener = threads.submit(() -> {
                    PgKeyStore.Read heard = m1.keys().readHeard("web1");
                    read.await();
                    accepted.await();
                    m1.keys().applyHeard("web1", heard);
                    return null;
                });
                Future<Boolean> accept = threads.submit(() -> {
                    read.await();
                    boolean moved = m1.keys().move("web1", KeyState.PENDING, KeyState.ACCEPTED);
                    accepted.await();
                    return moved;
                });
                assertThat(accept.get(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
                listener.get(30, java.util.concurrent.TimeUnit.SECONDS);
            } finally {
                threads.shutdownNow();
            }
            assertThat(m1.keys().stateOf("web1")).contains(KeyState.ACCEPTED);
            assertThat(m1.keys().acceptedKey("web1")).contains(RsaKeys.parsePublicKey(minionPem));
            assertThat(revoked).as("nothing was revoked: pillar, sign-ins and fleet data of web1 stay").isEmpty();
        }
    }

    @Test
    void aMinionThatSignedOnOneMasterIsHeldToSigningOnTheOtherUntilItsKeyGoes() {
        String db = pg.createDatabase();
        try (ClusterState m1 = master(db, "m1", 41181); ClusterState m2 = master(db, "m2", 41191)) {
            m1.keys().store(KeyState.ACCEPTED, "web1", minionPem);
            await().atMost(Duration.ofSeconds(10)).until(() -> m2.keys().acceptedKey("web1").isPresent());
            java.security.PublicKey key = RsaKeys.parsePublicKey(minionPem);
            assertThat(m2.keys().signingPins().pinned("web1", key)).isFalse();

            assertThat(m1.keys().signingPins().pin("web1", key)).isTrue(); // web1 signed a request on m1
            assertThat(m1.keys().signingPins().pin("web1", key)).isFalse();

            await().atMost(Duration.ofSeconds(10)).until(() -> m2.keys().signingPins().pinned("web1", key));
            assertThat(m2.keys().signingPins().pinned("web1", RsaKeys.parsePublicKey(otherPem))).isFalse();
            assertThat(m2.keys().signingPins().pin("web1", RsaKeys.parsePublicKey(otherPem))).as("not its accepted key").isFalse();

            m2.keys().delete("web1");
            m2.keys().store(KeyState.ACCEPTED, "web1", otherPem); // a new key under the same id starts unpinned
            await().atMost(Duration.ofSeconds(10)).until(() -> m1.keys().pem(KeyState.ACCEPTED, "web1").orElse("").equals(otherPem));
            assertThat(m1.keys().signingPins().pinned("web1", RsaKeys.parsePublicKey(otherPem))).isFalse();
            assertThat(m1.keys().signingPins().pinned("web1", key)).isFalse();
        }
    }

    @Test
    void aSigningPinClearedInTheDatabaseWithoutTheMasterKeyStillRefusesUnsignedReturns() throws Exception {
        String db = pg.createDatabase();
        try (ClusterState m1 = master(db, "m1", 41201); ClusterState m2 = master(db, "m2", 41211)) {
            java.security.PublicKey key = RsaKeys.parsePublicKey(minionPem);
            m1.keys().store(KeyState.ACCEPTED, "web1", minionPem);
            m1.keys().store(KeyState.ACCEPTED, "legacy", otherPem); // a minion that never signs
            byte[] beforePin = bytes(db, "SELECT signs_mac FROM jsalt_keys WHERE id = 'web1'"); // sealed "not signing"
            assertThat(m1.keys().signingPins().pin("web1", key)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> m2.keys().signingPins().pinned("web1", key)
                    && m2.keys().acceptedKey("legacy").isPresent());

            // a writer without master.pem clears web1's pin, once alone and once with the seal of the legacy row
            try (Connection c = pg.connect(db); Statement s = c.createStatement()) {
                s.execute("UPDATE jsalt_keys SET signs = false WHERE id = 'web1'; SELECT pg_notify('jsalt_keys', 'web1')");
            }
            m1.keys().store(KeyState.PENDING, "marker1", minionPem);
            await().atMost(Duration.ofSeconds(10)).until(() -> m2.keys().stateOf("marker1").isPresent());
            try (Connection c = pg.connect(db); Statement s = c.createStatement()) {
                s.execute("UPDATE jsalt_keys SET signs_mac = (SELECT signs_mac FROM jsalt_keys WHERE id = 'legacy')"
                        + " WHERE id = 'web1'; SELECT pg_notify('jsalt_keys', 'web1')");
            }
            m1.keys().store(KeyState.PENDING, "marker2", minionPem);
            await().atMost(Duration.ofSeconds(10)).until(() -> m2.keys().stateOf("marker2").isPresent());

            Map<String, Object> unsigned = Map.of("cmd", "_return", "id", "web1", "jid", "20261128030000000000", "return", true);
            try (ClusterState m3 = master(db, "m3", 41221)) { // reads the table whole at start
                for (ClusterState m : List.of(m1, m2, m3)) {
                    assertThat(m.keys().signingPins().pinned("web1", key)).isTrue();
                    assertThat(new MinionTrust(m.keys(), () -> false).judge("web1", key, unsigned))
                            .isEqualTo(MinionTrust.Verdict.UNSIGNED_PINNED);
                    // the minion that never signed, sealed as such, is still served as before
                    assertThat(new MinionTrust(m.keys(), () -> false).judge("legacy", RsaKeys.parsePublicKey(otherPem),
                            Map.of("cmd", "_return", "id", "legacy"))).isEqualTo(MinionTrust.Verdict.UNVERIFIED);
                }
            }

            // the row as it was before the pin, put back with its once real seal: a running master keeps the pin
            try (Connection c = pg.connect(db); PreparedStatement s = c.prepareStatement(
                    "UPDATE jsalt_keys SET signs = false, signs_mac = ? WHERE id = 'web1'; SELECT pg_notify('jsalt_keys', 'web1')")) {
                s.setBytes(1, beforePin);
                s.execute();
            }
            m1.keys().store(KeyState.PENDING, "marker3", minionPem);
            await().atMost(Duration.ofSeconds(10)).until(() -> m2.keys().stateOf("marker3").isPresent());
            for (ClusterState m : List.of(m1, m2)) {
                assertThat(new MinionTrust(m.keys(), () -> false).judge("web1", key, unsigned))
                        .isEqualTo(MinionTrust.Verdict.UNSIGNED_PINNED);
            }
        }
    }

    @Test
    void theSigningPinsOfAClusterMadeByAnEarlierVersionAreSealedAsTheyStandWhenAMasterUpgradesIt() throws Exception {
        String db = pg.createDatabase();
        java.security.PublicKey key = RsaKeys.parsePublicKey(minionPem);
        try (ClusterState m1 = master(db, "m1", 41231)) {
            m1.keys().store(KeyState.ACCEPTED, "web1", minionPem);
            m1.keys().store(KeyState.ACCEPTED, "legacy", otherPem);
            assertThat(m1.keys().signingPins().pin("web1", key)).isTrue();
        }
        try (Connection c = pg.connect(db); Statement s = c.createStatement()) {
            s.execute("ALTER TABLE jsalt_keys DROP COLUMN signs_mac"); // the table as an earlier version left it
        }
        try (ClusterState m2 = master(db, "m2", 41241)) {
            assertThat(m2.keys().signingPins().pinned("web1", key)).isTrue();
            assertThat(m2.keys().signingPins().pinned("legacy", RsaKeys.parsePublicKey(otherPem))).isFalse();
            assertThat(rows(db, "SELECT count(*) FROM jsalt_keys WHERE signs_mac IS NOT NULL")).isEqualTo(2);
        }
    }

    @Test
    void anAcceptedKeyWrittenWithoutTheMasterKeysSignatureIsNotBelieved() throws Exception {
        String db = pg.createDatabase();
        try (ClusterState m1 = master(db, "m1", 41081)) {
            m1.keys().store(KeyState.ACCEPTED, "honest", minionPem);
            byte[] forged = new MasterSeal(RsaKeys.generate(2048)).sign("jsalt accepted minion key v1",
                    MasterSeal.utf8("intruder"), MasterSeal.utf8(otherPem));
            try (Connection c = pg.connect(db); PreparedStatement s = c.prepareStatement(
                    "INSERT INTO jsalt_keys (id, state, pem, sig, master_id) VALUES (?, 'accepted', ?, ?, 'sql');"
                            + " SELECT pg_notify('jsalt_keys', ?)")) {
                s.setString(1, "intruder");
                s.setString(2, otherPem);
                s.setBytes(3, forged);
                s.setString(4, "intruder");
                s.execute();
            }
            // a row copied from another id keeps a real signature, but over the other id
            try (Connection c = pg.connect(db); Statement s = c.createStatement()) {
                s.execute("INSERT INTO jsalt_keys (id, state, pem, sig, master_id) SELECT 'copycat', state, pem, sig, 'sql'"
                        + " FROM jsalt_keys WHERE id = 'honest'; SELECT pg_notify('jsalt_keys', 'copycat')");
            }
            // then a real change made after both, so that once it is seen, both forged ones were read before
            m1.keys().store(KeyState.PENDING, "marker", minionPem);
            try (ClusterState m2 = master(db, "m2", 41091)) {
                assertThat(m2.keys().stateOf("marker")).contains(KeyState.PENDING);
                assertThat(m2.keys().stateOf("intruder")).isEmpty();
                assertThat(m2.keys().stateOf("copycat")).isEmpty();
                assertThat(m2.keys().acceptedKey("copycat")).isEmpty();
                assertThat(m2.keys().stateOf("honest")).contains(KeyState.ACCEPTED);
            }
            assertThat(m1.keys().stateOf("intruder")).isEmpty();
        }
    }

    @Test
    void anInvalidIdIsRefusedAndNothingIsWritten() throws Exception {
        String db = pg.createDatabase();
        try (ClusterState m1 = master(db, "m1", 41101)) {
            for (String bad : new String[] {"../etc", "", "a/b", "."}) {
                assertThatThrownBy(() -> m1.keys().store(KeyState.ACCEPTED, bad, minionPem)).isInstanceOf(WireException.class);
                assertThatThrownBy(() -> m1.keys().storeIfNew(KeyState.PENDING, bad, minionPem)).isInstanceOf(WireException.class);
            }
            assertThat(rows(db, "SELECT count(*) FROM jsalt_keys")).isZero();
        }
    }

    @Test
    void theFirstMasterBringsItsKeyFilesAndALaterMastersFilesAreLeftAlone() throws Exception {
        String db = pg.createDatabase();
        Path pki1 = tmp.resolve("m1/etc/jsalt/pki/master");
        KeyStore files1 = new KeyStore(pki1);
        files1.store(KeyState.ACCEPTED, "old1", minionPem);
        files1.store(KeyState.PENDING, "old2", otherPem);
        KeyStore files2 = new KeyStore(tmp.resolve("m2/etc/jsalt/pki/master"));
        files2.store(KeyState.ACCEPTED, "stray", minionPem);
        try (ClusterState m1 = master(db, "m1", 41111); ClusterState m2 = master(db, "m2", 41121)) {
            for (MinionKeys keys : List.of(m1.keys(), m2.keys())) {
                assertThat(keys.listAll()).isEqualTo(Map.of(KeyState.ACCEPTED, List.of("old1"), KeyState.PENDING, List.of("old2"),
                        KeyState.REJECTED, List.of(), KeyState.DENIED, List.of()));
            }
            assertThat(m2.keys().acceptedKey("old1")).isPresent();
        }
    }

    @Test
    void aMasterWithAnotherMasterKeyOrClusterIdIsRefused() {
        String db = pg.createDatabase();
        try (ClusterState m1 = master(db, "m1", 41131)) {
            assertThatThrownBy(() -> ClusterFixture.join(pg, db, tmp.resolve("m2"), 41141, RsaKeys.generate(2048), new SessionKey()))
                    .isInstanceOf(ClusterException.class).hasMessageContaining("is not the cluster's")
                    .hasMessageContaining("copy master.pem");
            assertThatThrownBy(() -> ClusterState.join(ClusterFixture.config(pg, db, tmp.resolve("m3"), 41151, "other"),
                    masterKey, new SessionKey())).isInstanceOf(ClusterException.class).hasMessageContaining("cluster_id 'test'");
        }
    }

    @Test
    void aChangeMadeWhileAMastersListenerWasCutOffIsKnownOnceItIsBack() throws Exception {
        String db = pg.createDatabase();
        try (ClusterState m1 = master(db, "m1", 41161); ClusterState m2 = master(db, "m2", 41171);
             Connection admin = pg.connect("postgres")) {
            await().atMost(Duration.ofSeconds(10)).until(() -> ClusterFixture.listeners(pg, db) == 2);
            m1.keys().store(KeyState.PENDING, "before", minionPem); // m1's connection is open: it needs no new one below
            await().atMost(Duration.ofSeconds(10)).until(() -> m2.keys().stateOf("before").isPresent());
            try (Statement s = admin.createStatement()) {
                // nobody may connect to db now, so m2's listener, cut off below, cannot come back before the change
                s.execute("ALTER DATABASE " + db + " ALLOW_CONNECTIONS false");
                s.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + db + "' AND query LIKE 'LISTEN%'");
            }
            // both listeners were cut; m1's change goes through its open connection and nobody hears its NOTIFY
            m1.keys().move("before", KeyState.PENDING, KeyState.ACCEPTED);
            m1.keys().store(KeyState.PENDING, "during", minionPem);
            assertThat(m2.keys().stateOf("during")).isEmpty();
            try (Statement s = admin.createStatement()) {
                s.execute("ALTER DATABASE " + db + " ALLOW_CONNECTIONS true");
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> m2.keys().stateOf("during").isPresent()
                    && m2.keys().stateOf("before").orElseThrow() == KeyState.ACCEPTED);
            assertThat(m2.changes().reconnects()).isPositive();
            assertThat(m2.keys().listAll()).isEqualTo(m1.keys().listAll());
        }
    }

    private static byte[] bytes(String db, String sql) throws Exception {
        try (Connection c = pg.connect(db); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getBytes(1);
        }
    }

    private static long rows(String db, String sql) throws Exception {
        try (Connection c = pg.connect(db); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
