package io.jsalt.master.jobs;

import io.jsalt.config.PostgresSettings;
import io.jsalt.master.jobs.pg.PostgresJobCache;
import io.jsalt.master.testing.PgCluster;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The job cache contract against a real PostgreSQL (a private cluster for this class, a database per test). */
class PostgresJobCacheTest extends JobCacheContract {
    static PgCluster cluster;

    @TempDir
    Path cachedir;

    @BeforeAll
    static void startCluster() {
        cluster = PgCluster.start();
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @Override
    JobCache newCache() {
        PostgresSettings settings = new PostgresSettings("127.0.0.1", cluster.port(), cluster.createDatabase(),
                PgCluster.SUPERUSER, cluster.password(), Map.of("sslmode", "disable"), 16L * 1_048_576);
        return PostgresJobCache.open(settings, cachedir);
    }
}
