package io.jsalt.master.jobs.pg;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.config.PostgresSettings;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.testing.PgCluster;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Masters on one database take a jid slot each, so their jids never collide; a stopped master's slot is free again. */
class PgJidSlotsTest {
    static PgCluster cluster;

    @TempDir
    Path tmp;

    @BeforeAll
    static void startCluster() {
        cluster = PgCluster.start();
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @Test
    void eachMasterOnOneDatabaseMakesJidsInASlotOfItsOwn() throws Exception {
        String db = cluster.createDatabase();
        PostgresSettings settings = new PostgresSettings("127.0.0.1", cluster.port(), db, PgCluster.SUPERUSER,
                cluster.password(), Map.of(), 1_048_576, false);
        Jids j1 = new Jids();
        Jids j2 = new Jids();
        Jids j3 = new Jids();
        PostgresJobCache c1 = PostgresJobCache.open(settings, tmp.resolve("m1"), "m1", j1);
        PostgresJobCache c2 = PostgresJobCache.open(settings, tmp.resolve("m2"), "m2", j2);
        try {
            assertThat(residues(j1)).containsOnly(0L);
            assertThat(residues(j2)).containsOnly(1L);
            assertThat(slots(db)).containsExactly("0=m1", "1=m2");

            c1.close(); // a clean stop gives its slot back: the next master takes the lowest free one
            try (PostgresJobCache c3 = PostgresJobCache.open(settings, tmp.resolve("m3"), "m3", j3)) {
                assertThat(residues(j3)).containsOnly(0L);
                assertThat(slots(db)).containsExactly("0=m3", "1=m2");
            }
        } finally {
            c1.close();
            c2.close();
        }
    }

    private static List<Long> residues(Jids jids) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            out.add(Long.parseLong(jids.next().substring(14)) % PgJidSlots.SLOTS);
        }
        return out;
    }

    private static List<String> slots(String db) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = cluster.connect(db); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT slot, master_id FROM jsalt_masters ORDER BY slot")) {
            while (rs.next()) {
                out.add(rs.getInt(1) + "=" + rs.getString(2));
            }
        }
        return out;
    }
}
