package io.jsalt.minion.modules;

import io.jsalt.modules.ModuleRegistry;

/**
 * Where a job gets its functions. A job takes a lease when it starts and keeps that registry to its end, even
 * if the modules are reloaded meanwhile; a replaced registry is closed once its last lease is returned.
 */
public interface ModuleSource {

    /** The registry for one job; close the lease when the job ends. */
    Lease acquire();

    /** A registry that never changes (tests, a minion without reloads). */
    static ModuleSource fixed(ModuleRegistry registry) {
        Lease lease = new Lease() {
            @Override
            public ModuleRegistry registry() {
                return registry;
            }

            @Override
            public void close() {
                // the registry outlives every job: nothing to release
            }
        };
        return () -> lease;
    }

    /** One job's hold on a registry. */
    interface Lease extends AutoCloseable {
        ModuleRegistry registry();

        @Override
        void close();
    }
}
