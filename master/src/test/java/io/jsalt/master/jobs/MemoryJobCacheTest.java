package io.jsalt.master.jobs;

class MemoryJobCacheTest extends JobCacheContract {
    @Override
    JobCache newCache() {
        return new MemoryJobCache();
    }
}
