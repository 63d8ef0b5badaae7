package io.jsalt.master.jobs.pg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.config.PostgresSettings;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.master.cluster.ClusterSeal;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.jobs.JobCache;
import io.jsalt.master.testing.PgCluster;
import io.jsalt.transport.event.EventFrame;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two masters' buses on one database: what one fires, the other fires too, in order, once, and the rows are Salt's salt_events. */
class PgEventBridgeTest {
    static PgCluster cluster;
    /** The cluster MAC of the master key both masters hold. */
    static ClusterSeal seal;

    @TempDir
    Path cachedir;

    @BeforeAll
    static void startCluster() {
        cluster = PgCluster.start();
        seal = new ClusterSeal(RsaKeys.generate(2048).getPrivate());
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @Test
    void anEventFiredOnOneMasterIsFiredOnTheOtherInOrderAndOnce() throws Exception {
        String db = cluster.createDatabase();
        PostgresSettings settings = settings(db);
        EventBus bus1 = new EventBus();
        EventBus bus2 = new EventBus();
        List<EventFrame> seen1 = new CopyOnWriteArrayList<>();
        List<EventFrame> seen2 = new CopyOnWriteArrayList<>();
        bus1.addListener(seen1::add);
        bus2.addListener(seen2::add);
        try (JobCache schema = PostgresJobCache.open(settings, cachedir);
             PgEventBridge m1 = PgEventBridge.start(settings, "m1", bus1, seal);
             PgEventBridge m2 = PgEventBridge.start(settings, "m2", bus2, seal)) {
            // LISTEN is issued by each bridge's thread: wait until both listen before firing
            await().atMost(Duration.ofSeconds(30)).until(() -> listeners(db) >= 2);
            for (int i = 0; i < 300; i++) {
                bus1.fire("salt/job/2026010112000000" + String.format("%04d", i) + "/new",
                        Map.of("i", (long) i, "raw", new byte[] {1, (byte) 0xff}));
            }
            bus2.fire("jsalt/from/m2", Map.of("hello", "m1"));

            await().atMost(Duration.ofSeconds(60)).until(() -> seen2.size() >= 301);
            await().atMost(Duration.ofSeconds(60)).until(() -> seen1.size() >= 301);
            List<Long> order = new ArrayList<>();
            seen2.stream().filter(e -> e.tag().startsWith("salt/job/")).forEach(e -> order.add((Long) e.data().get("i")));
            assertThat(order).hasSize(300).isSorted().doesNotHaveDuplicates();
            assertThat(seen2).filteredOn(e -> e.tag().equals("salt/job/20260101120000000007/new")).singleElement()
                    .satisfies(e -> assertThat((byte[]) e.data().get("raw")).containsExactly(1, (byte) 0xff));
            assertThat(seen1).filteredOn(e -> e.tag().equals("jsalt/from/m2")).singleElement()
                    .satisfies(e -> assertThat(e.data()).containsEntry("hello", "m1").containsEntry("master_id", "m2"));
        }
        // nothing echoed back: each bus saw its own events once and the other's once
        assertThat(seen1).hasSize(301);
        assertThat(seen2).hasSize(301);
        try (Connection c = cluster.connect(db); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT master_id, count(*) FROM salt_events GROUP BY master_id ORDER BY master_id")) {
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(rs.getString(1) + "=" + rs.getInt(2));
            }
            assertThat(rows).containsExactly("m1=300", "m2=1");
        }
    }

    @Test
    void eventsFiredWhileAMastersListenerWasCutOffAreRelayedOnceItIsBackInOrderAndOnce() throws Exception {
        String db = cluster.createDatabase();
        PostgresSettings settings = settings(db);
        EventBus bus1 = new EventBus();
        EventBus bus2 = new EventBus();
        List<EventFrame> seen2 = new CopyOnWriteArrayList<>();
        bus2.addListener(seen2::add);
        try (JobCache schema = PostgresJobCache.open(settings, cachedir);
             PgEventBridge m1 = PgEventBridge.start(settings, "m1", bus1, seal);
             PgEventBridge m2 = PgEventBridge.start(settings, "m2", bus2, seal);
             Connection admin = cluster.connect("postgres");
             Connection watch = cluster.connect(db)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> listeners(db) >= 2);
            bus1.fire("test/seq", Map.of("i", 0L)); // m1's writer connection is open from now on
            await().atMost(Duration.ofSeconds(30)).until(() -> seen2.size() == 1);
            try (Statement s = admin.createStatement()) {
                // no new connection to db, so the listeners cut below stay away until allowed again
                s.execute("ALTER DATABASE " + db + " ALLOW_CONNECTIONS false");
                // a listener's last statement is its LISTEN, or the read of the rows it relayed last
                s.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + db + "'"
                        + " AND (query LIKE 'LISTEN%' OR query LIKE '%WHERE id = ANY%')");
            }
            for (long i = 1; i <= 200; i++) {
                bus1.fire("test/seq", Map.of("i", i));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> rows(watch, "SELECT count(*) FROM salt_events WHERE master_id = 'm1'") == 201);
            assertThat(seen2).hasSize(1); // m2 heard nothing of them
            try (Statement s = admin.createStatement()) {
                s.execute("ALTER DATABASE " + db + " ALLOW_CONNECTIONS true");
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> seen2.size() >= 201);
            for (long i = 201; i <= 250; i++) {
                bus1.fire("test/seq", Map.of("i", i));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> seen2.size() >= 251);
        }
        List<Long> order = new ArrayList<>();
        seen2.forEach(e -> order.add((Long) e.data().get("i")));
        assertThat(order).hasSize(251).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void anEventWrittenIntoTheDatabaseWithoutTheMastersSealIsNeverFired() throws Exception {
        String db = cluster.createDatabase();
        PostgresSettings settings = settings(db);
        EventBus bus1 = new EventBus();
        EventBus bus2 = new EventBus();
        List<EventFrame> seen2 = new CopyOnWriteArrayList<>();
        bus2.addListener(seen2::add);
        ClusterSeal otherKey = new ClusterSeal(RsaKeys.generate(2048).getPrivate());
        String fakeReturn = "{\"id\": \"web1\", \"jid\": \"20261128030000000000\", \"return\": \"forged\", \"success\": true}";
        try (JobCache schema = PostgresJobCache.open(settings, cachedir);
             PgEventBridge m1 = PgEventBridge.start(settings, "m1", bus1, seal);
             PgEventBridge m2 = PgEventBridge.start(settings, "m2", bus2, seal);
             Connection sql = cluster.connect(db)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> listeners(db) >= 2);
            bus1.fire("test/real", Map.of("i", 0L));
            await().atMost(Duration.ofSeconds(30)).until(() -> seen2.size() == 1);

            // a writer without master.pem: a job return with no MAC, one sealed with another key, a real row's MAC
            // on changed data, and one with no MAC under m1's name and an id far above m1's
            String tag = "salt/job/20261128030000000000/ret/web1";
            try (PreparedStatement s = sql.prepareStatement("INSERT INTO salt_events (id, tag, data, master_id, mac)"
                    + " VALUES (COALESCE(?, nextval('seq_salt_events_id')), ?, ?::jsonb, ?, ?)"
                    + " RETURNING pg_notify('jsalt_events', id || ':' || master_id)")) {
                forge(s, null, tag, fakeReturn, "m9", null);
                forge(s, null, tag, fakeReturn, "m9", otherKey.mac("jsalt relayed event v1", tag, PgJson.read(fakeReturn), "m9"));
                forge(s, 9_000_000_000L, tag, fakeReturn, "m1", null);
                forge(s, null, tag, "{\"$binary\": \"not base64!\"}", "m9", null); // reads back as nothing
            }
            try (Statement s = sql.createStatement()) {
                s.execute("INSERT INTO salt_events (tag, data, master_id, mac) SELECT 'test/real', '{\"i\": 99}', master_id, mac"
                        + " FROM salt_events WHERE master_id = 'm1' AND tag = 'test/real';"
                        + " SELECT pg_notify('jsalt_events', max(id) || ':m1') FROM salt_events");
            }
            // then a real event of m1: once m2 fired it, it had read every forged row before it
            bus1.fire("test/real", Map.of("i", 1L));
            await().atMost(Duration.ofSeconds(30)).until(() -> seen2.size() >= 2);
            assertThat(rows(sql, "SELECT count(*) FROM salt_events WHERE tag = '" + tag + "'")).isEqualTo(4);
        }
        assertThat(seen2).extracting(EventFrame::tag).containsExactly("test/real", "test/real");
        assertThat(seen2).extracting(e -> e.data().get("i")).containsExactly(0L, 1L);
    }

    @Test
    void aSealedRowCopiedUnderAHigherIdIsNotFiredAndDoesNotHideTheRealRowsAfterIt() throws Exception {
        String db = cluster.createDatabase();
        PostgresSettings settings = settings(db);
        EventBus bus1 = new EventBus();
        EventBus bus2 = new EventBus();
        List<EventFrame> seen2 = new CopyOnWriteArrayList<>();
        bus2.addListener(seen2::add);
        try (JobCache schema = PostgresJobCache.open(settings, cachedir);
             PgEventBridge m1 = PgEventBridge.start(settings, "m1", bus1, seal);
             PgEventBridge m2 = PgEventBridge.start(settings, "m2", bus2, seal);
             Connection sql = cluster.connect(db)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> listeners(db) >= 2);
            bus1.fire("test/real", Map.of("i", 0L));
            await().atMost(Duration.ofSeconds(30)).until(() -> seen2.size() == 1);
            // a writer without master.pem copies m1's sealed row as it is, under an id far above m1's
            try (Statement s = sql.createStatement()) {
                s.execute("INSERT INTO salt_events (id, tag, data, master_id, mac) SELECT 9000000000, tag, data, master_id, mac"
                        + " FROM salt_events WHERE master_id = 'm1' AND tag = 'test/real';"
                        + " SELECT pg_notify('jsalt_events', '9000000000:m1')");
            }
            for (long i = 1; i <= 3; i++) {
                bus1.fire("test/real", Map.of("i", i)); // m1's real events after the copy
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> seen2.size() >= 4);
        }
        assertThat(seen2).extracting(e -> e.data().get("i")).containsExactly(0L, 1L, 2L, 3L);
    }

    private static PostgresSettings settings(String db) {
        return new PostgresSettings("127.0.0.1", cluster.port(), db, PgCluster.SUPERUSER, cluster.password(), Map.of(),
                1_048_576, true);
    }

    private static void forge(PreparedStatement s, Long id, String tag, String json, String master, byte[] mac) throws Exception {
        if (id == null) {
            s.setNull(1, java.sql.Types.BIGINT);
        } else {
            s.setLong(1, id);
        }
        s.setString(2, tag);
        s.setString(3, json);
        s.setString(4, master);
        s.setBytes(5, mac);
        s.executeQuery().close();
    }

    private static long rows(Connection c, String sql) throws Exception {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
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
