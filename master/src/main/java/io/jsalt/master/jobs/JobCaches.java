package io.jsalt.master.jobs;

import io.jsalt.config.MasterConfig;

/** Opens the job cache {@code master_job_cache} names; the one place that knows every implementation. */
public final class JobCaches {
    private JobCaches() {
    }

    public static JobCache open(MasterConfig config) {
        return switch (config.masterJobCache()) {
            case "memory" -> new MemoryJobCache();
            case "sqlite" -> SqliteJobCache.open(config.cachedir());
            case "postgres" -> io.jsalt.master.jobs.pg.PostgresJobCache.open(config.postgres(), config.cachedir());
            default -> throw new IllegalArgumentException("unknown master_job_cache: " + config.masterJobCache());
        };
    }
}
