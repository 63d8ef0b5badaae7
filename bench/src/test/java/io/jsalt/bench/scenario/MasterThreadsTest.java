package io.jsalt.bench.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A master's threads, as /proc names them, grouped by role for master-capacity's per-return figures. */
class MasterThreadsTest {
    @Test
    void threadNamesAsTheKernelCutsThemFallIntoTheirRoles() {
        assertThat(MasterThreads.role("jsalt-mworker-N")).isEqualTo("mworkers");
        assertThat(MasterThreads.role("jsalt-req-route")).isEqualTo("router");
        assertThat(MasterThreads.role("jsalt-req-selec")).as("the native request server's selector").isEqualTo("router");
        assertThat(MasterThreads.role("jsalt-job-cache")).isEqualTo("job_cache_writer");
        assertThat(MasterThreads.role("iothread-N")).isEqualTo("io");
        assertThat(MasterThreads.role("CN CompilerThre")).isEqualTo("jit");
        assertThat(MasterThreads.role("GC Thread#N")).isEqualTo("gc");
        assertThat(MasterThreads.role("GN Refine#N")).isEqualTo("gc");
        assertThat(MasterThreads.role("VM Thread")).isEqualTo("other");
    }

    @Test
    void perReturnMicrosSumsEachRoleAndTheTotal() {
        Map<String, Long> byThread = new LinkedHashMap<>();
        byThread.put("jsalt-mworker-N", 2400L);
        byThread.put("jsalt-req-route", 1000L);
        byThread.put("CN CompilerThre", 1000L); // C1 and C2, digits read as N
        byThread.put("VM Thread", 20L);

        Map<String, Long> micros = MasterThreads.perReturnMicros(byThread, 20_000);

        assertThat(micros).containsEntry("mworkers", 120L).containsEntry("router", 50L).containsEntry("jit", 50L)
                .containsEntry("job_cache_writer", 0L).containsEntry("other", 1L).containsEntry("total", 221L);
        assertThat(micros.keySet()).containsExactly("mworkers", "router", "job_cache_writer", "io", "jit", "gc", "other", "total");
        assertThat(MasterThreads.jitMillis(byThread)).isEqualTo(1000L);
    }
}
