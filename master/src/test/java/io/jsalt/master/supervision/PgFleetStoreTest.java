package io.jsalt.master.supervision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.config.PostgresSettings;
import io.jsalt.master.testing.PgCluster;
import io.jsalt.transport.event.EventFrame;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The fleet table in a real PostgreSQL shared by two masters: each writes its own minions' rows, each shows the
 * whole fleet (the other master's rows marked with it), removals and deleted keys reach both, a new master starts
 * with the table, and a database that goes away costs the shared view, not the master's own.
 */
class PgFleetStoreTest {
    static PgCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = PgCluster.start();
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    private static PostgresSettings settings(String db) {
        return new PostgresSettings("127.0.0.1", cluster.port(), db, PgCluster.SUPERUSER, cluster.password(), Map.of(),
                1_048_576, false);
    }

    private static EventFrame change(String id, String process, String state, long pid, Object... more) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("name", process);
        data.put("group", process);
        data.put("state", state);
        data.put("pid", pid);
        data.put("exitstatus", null);
        data.put("since", 1_795_000_000.5);
        data.put("restarts", 1);
        data.put("description", "pid " + pid);
        data.put("id", id);
        for (int i = 0; i < more.length; i += 2) {
            data.put((String) more[i], more[i + 1]);
        }
        return new EventFrame("jsalt/supervisor/" + id + "/" + process + "/" + state, data);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> row(FleetProcesses fleet, String minion, String process) {
        Map<String, Object> ofMinion = fleet.status(null, null, null).get(minion);
        return ofMinion == null ? null : (Map<String, Object>) ofMinion.get(process);
    }

    @Test
    void everyMasterOnTheDatabaseShowsTheWholeFleet() throws Exception {
        String db = cluster.createDatabase();
        try (FleetProcesses a = new FleetProcesses(Clock.systemUTC(), PgFleetStore.open(settings(db), "host_master:1"));
                FleetProcesses b = new FleetProcesses(Clock.systemUTC(), PgFleetStore.open(settings(db), "host_master:2"))) {
            a.onEvent(change("web1", "app", "RUNNING", 11));
            a.onEvent(change("web1", "gone", "RUNNING", 12));
            b.onEvent(change("web2", "app", "RUNNING", 21));
            // web1's change relayed to b by the shared bus (event_return): b shows it, but does not write it
            b.onEvent(change("web1", "app", "RUNNING", 11, "master_id", "host_master:1"));

            await().atMost(Duration.ofSeconds(30)).until(() -> row(a, "web2", "app") != null && row(b, "web1", "gone") != null);
            assertThat(row(a, "web2", "app")).containsEntry("pid", 21L).containsEntry("via", "host_master:2");
            assertThat(row(a, "web1", "app")).containsEntry("pid", 11L).containsEntry("via", null);
            assertThat(row(b, "web1", "gone")).containsEntry("via", "host_master:1");
            assertThat(masterOf(db, "web1", "app")).as("written by its own master only").isEqualTo("host_master:1");

            // a removal on one master leaves the other's view too, also a master's started since; so does a deleted key
            try (FleetProcesses late = new FleetProcesses(Clock.systemUTC(), PgFleetStore.open(settings(db), "host_master:4"))) {
                assertThat(row(late, "web1", "gone")).containsEntry("via", "host_master:1");
                a.onEvent(new EventFrame("jsalt/supervisor/web1/gone/REMOVED", Map.of("id", "web1")));
                b.forget("web2");
                await().atMost(Duration.ofSeconds(30)).until(() -> row(b, "web1", "gone") == null
                        && row(a, "web2", "app") == null && row(late, "web1", "gone") == null);
            }
        }
        // a master started now shows what the others wrote
        try (FleetProcesses c = new FleetProcesses(Clock.systemUTC(), PgFleetStore.open(settings(db), "host_master:3"))) {
            assertThat(c.status(null, null, null)).containsOnlyKeys("web1");
            assertThat(row(c, "web1", "app")).containsEntry("via", "host_master:1").containsEntry("state", "RUNNING");
        }
    }

    @Test
    void whileTheDatabaseIsAwayAMasterShowsItsOwnMinionsAndWritesAgainOnceItIsBack() throws Exception {
        String db = cluster.createDatabase();
        try (FleetProcesses a = new FleetProcesses(Clock.systemUTC(), PgFleetStore.open(settings(db), "host_master:1"))) {
            a.onEvent(change("web1", "app", "RUNNING", 11));
            await().atMost(Duration.ofSeconds(30)).until(() -> masterOf(db, "web1", "app") != null);

            cluster.stopServer();
            try {
                a.onEvent(change("web1", "app", "EXITED", 0));
                assertThat(row(a, "web1", "app")).containsEntry("state", "EXITED");
            } finally {
                cluster.startServer();
            }
            a.onEvent(change("web1", "app", "RUNNING", 13));
            await().atMost(Duration.ofSeconds(30)).until(() -> Long.valueOf(13).equals(pidOf(db, "web1", "app")));
        }
    }

    private static String masterOf(String db, String minion, String process) throws Exception {
        return (String) column(db, minion, process, "master");
    }

    private static Long pidOf(String db, String minion, String process) throws Exception {
        return (Long) column(db, minion, process, "pid");
    }

    private static Object column(String db, String minion, String process, String column) throws Exception {
        try (Connection c = cluster.connect(db); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT " + column + " FROM " + PgFleetStore.TABLE + " WHERE minion = '"
                        + minion + "' AND process = '" + process + "'")) {
            return rs.next() ? rs.getObject(1) : null;
        } catch (java.sql.SQLException e) {
            if (e.getMessage().contains("does not exist")) {
                return null; // the table is made by the store's first write
            }
            throw e;
        }
    }
}
