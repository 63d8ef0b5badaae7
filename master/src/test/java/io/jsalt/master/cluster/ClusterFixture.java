package io.jsalt.master.cluster;

import io.jsalt.config.MasterConfig;
import io.jsalt.master.session.SessionKey;
import io.jsalt.master.testing.PgCluster;
import java.nio.file.Path;
import java.security.KeyPair;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Masters of one cluster in this JVM, each with its own folder and request port, on a database of a {@link PgCluster}. */
final class ClusterFixture {
    private ClusterFixture() {
    }

    static MasterConfig config(PgCluster pg, String db, Path root, int retPort, String clusterId) {
        return MasterConfig.builder(root).retPort(retPort).publishPort(retPort + 1)
                .set("master_job_cache", "postgres")
                .set("cluster_id", clusterId)
                .set("returner.pgjsonb.dsn", "host=127.0.0.1 port=" + pg.port() + " dbname=" + db + " user=" + PgCluster.SUPERUSER
                        + " password=" + pg.password() + " sslmode=disable")
                .build();
    }

    static ClusterState join(PgCluster pg, String db, Path root, int retPort, KeyPair masterKey, SessionKey sessionKey) {
        return ClusterState.join(config(pg, db, root, retPort, "test"), masterKey, sessionKey);
    }

    /** How many sessions LISTEN on {@code db} now (a listener's last statement is its LISTEN, or a wait for notifications). */
    static int listeners(PgCluster pg, String db) throws SQLException {
        try (Connection c = pg.connect(db); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE datname = '" + db
                     + "' AND query LIKE 'LISTEN%'")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
