package io.jsalt.master.jobs.pg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.config.PostgresSettings;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.master.publish.RelayedPublication;
import io.jsalt.master.testing.PgCluster;
import io.jsalt.transport.message.PublishLoad;
import java.nio.file.Path;
import java.security.KeyPair;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two masters' relays on one real database: a job one publishes is published by the other, once; rows written
 * into jsalt_publications by someone without the cluster's master key, signed by another key, old, or sent
 * again are refused, so writing to the database commands no minion.
 */
class PgPublicationRelayTest {
    static PgCluster cluster;

    @TempDir
    Path pki;

    @BeforeAll
    static void startCluster() {
        cluster = PgCluster.start();
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    private KeyPair key(String name) {
        return RsaKeys.loadOrCreate(pki.resolve(name), "master");
    }

    private PostgresSettings settings(String db) {
        return new PostgresSettings("127.0.0.1", cluster.port(), db, PgCluster.SUPERUSER, cluster.password(), Map.of(), 1_048_576, false);
    }

    private static PublishLoad job(String jid) {
        return new PublishLoad("test.echo", List.of("relayed"), "*", jid, "", "glob", "root");
    }

    @Test
    void aJobPublishedOnOneMasterIsPublishedByTheOtherOnceAndNotEchoed() throws Exception {
        String db = cluster.createDatabase();
        KeyPair shared = key("shared");
        List<PublishLoad> onM1 = new CopyOnWriteArrayList<>();
        List<PublishLoad> onM2 = new CopyOnWriteArrayList<>();
        try (PgPublicationRelay m1 = PgPublicationRelay.start(settings(db), "m1", shared, onM1::add, Clock.systemUTC());
             PgPublicationRelay m2 = PgPublicationRelay.start(settings(db), "m2", shared, onM2::add, Clock.systemUTC())) {
            await().atMost(Duration.ofSeconds(30)).until(() -> listeners(db) >= 2);

            m1.relay(job("20260101120000000001"));
            m2.relay(job("20260101120000000002"));

            await().atMost(Duration.ofSeconds(30)).until(() -> onM2.size() == 1 && onM1.size() == 1);
            assertThat(onM2.get(0)).isEqualTo(job("20260101120000000001"));
            assertThat(onM1.get(0)).isEqualTo(job("20260101120000000002"));
            replayRow(db, "20260101120000000001"); // the same signed row, written again by someone with the database
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() -> onM2.size() == 1 && onM1.size() == 1);
        }
    }

    @Test
    void aRowNotSignedWithTheClustersMasterKeyCommandsNothing() throws Exception {
        String db = cluster.createDatabase();
        KeyPair shared = key("shared");
        KeyPair stranger = key("stranger");
        List<PublishLoad> onM2 = new CopyOnWriteArrayList<>();
        try (PgPublicationRelay m2 = PgPublicationRelay.start(settings(db), "m2", shared, onM2::add, Clock.systemUTC())) {
            await().atMost(Duration.ofSeconds(30)).until(() -> listeners(db) >= 1);
            RelayedPublication.Signed forged = new RelayedPublication("m9", Instant.now(), job("20260101120000000003"))
                    .sign(stranger.getPrivate());
            insert(db, "m9", forged.body(), forged.sig());
            insert(db, "m9", forged.body(), new byte[0]);
            RelayedPublication.Signed old = new RelayedPublication("m9", Instant.now().minusSeconds(600), job("20260101120000000004"))
                    .sign(shared.getPrivate());
            insert(db, "m9", old.body(), old.sig());
            RelayedPublication.Signed honest = new RelayedPublication("m9", Instant.now(), job("20260101120000000005"))
                    .sign(shared.getPrivate());
            byte[] changed = honest.body().clone();
            changed[changed.length - 3] ^= 1; // a target or function changed after signing
            insert(db, "m9", changed, honest.sig());
            insert(db, "m9", honest.body(), honest.sig());

            await().atMost(Duration.ofSeconds(30)).until(() -> !onM2.isEmpty());
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() -> onM2.size() == 1);
            assertThat(onM2).containsExactly(job("20260101120000000005"));
        }
    }

    private static void insert(String db, String masterId, byte[] body, byte[] sig) throws Exception {
        try (Connection c = cluster.connect(db); PreparedStatement s = c.prepareStatement(
                "INSERT INTO jsalt_publications (master_id, jid, body, sig) VALUES (?, 'x', ?, ?)"
                        + " RETURNING pg_notify('" + PgPublicationRelay.CHANNEL + "', id || ':' || master_id)")) {
            s.setString(1, masterId);
            s.setBytes(2, body);
            s.setBytes(3, sig);
            s.executeQuery().close();
        }
    }

    private static void replayRow(String db, String jid) throws Exception {
        try (Connection c = cluster.connect(db); Statement s = c.createStatement()) {
            s.execute("INSERT INTO jsalt_publications (master_id, jid, body, sig) SELECT 'm1', jid, body, sig FROM jsalt_publications"
                    + " WHERE jid = '" + jid + "'");
            s.execute("SELECT pg_notify('" + PgPublicationRelay.CHANNEL + "', max(id) || ':m1') FROM jsalt_publications");
        }
    }

    private static int listeners(String db) throws Exception {
        try (Connection c = cluster.connect(db); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                     + " AND query LIKE 'LISTEN %'")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
