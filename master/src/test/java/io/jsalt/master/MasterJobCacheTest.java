package io.jsalt.master;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.config.MasterConfig;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.JobReturn;
import io.jsalt.master.jobs.MemoryJobCache;
import io.jsalt.master.jobs.SqliteJobCache;
import io.jsalt.master.support.TestKeys;
import io.jsalt.transport.Transport;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** master_job_cache as the master uses it: the default survives a restart, memory does not touch the disk. */
class MasterJobCacheTest {
    @TempDir
    Path root;

    @Test
    void aJobAndItsReturnWrittenByOneMasterAreReadBackByTheNextOnTheSameCachedir() throws IOException {
        MasterConfig config = config(Map.of());
        Instant started = Instant.parse("2026-01-01T12:00:00Z");
        Job job = new Job("20260101120000000001", "test.ping", List.of(), "*", "glob", "root", List.of("web1"), started);
        try (Master first = new Master(config, Transport::create)) {
            first.start();
            assertThat(first.jobs()).isInstanceOf(SqliteJobCache.class);
            first.jobs().saveJob(job);
            assertThat(first.jobs().saveReturn(new JobReturn(job.jid(), "web1", true, 0, true, started))).isTrue();
        }

        try (Master second = new Master(config, Transport::create)) {
            second.start();
            assertThat(second.jobs().job(job.jid())).contains(job);
            assertThat(second.jobs().returns(job.jid())).extracting(JobReturn::id, JobReturn::ret)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("web1", true));
            assertThat(second.jobs().saveReturn(new JobReturn(job.jid(), "web1", true, 0, true, started))).isFalse();
        }
        assertThat(config.cachedir().resolve("jobs.sqlite")).exists();
    }

    @Test
    void theMemoryCacheWritesNoDatabase() throws IOException {
        MasterConfig config = config(Map.of("master_job_cache", "memory"));
        try (Master master = new Master(config, Transport::create)) {
            master.start();
            assertThat(master.jobs()).isInstanceOf(MemoryJobCache.class);
        }
        assertThat(config.cachedir().resolve("jobs.sqlite")).doesNotExist();
    }

    private MasterConfig config(Map<String, Object> extra) throws IOException {
        int publishPort = freePort();
        int retPort = freePort();
        while (retPort == publishPort) {
            retPort = freePort();
        }
        var builder = MasterConfig.builder(root).interfaceAddress("127.0.0.1").publishPort(publishPort)
                .retPort(retPort).workerThreads(1);
        extra.forEach(builder::set);
        MasterConfig config = builder.build();
        Files.createDirectories(config.pkiDir());
        Path pem = config.pkiDir().resolve("master.pem");
        if (!Files.exists(pem)) {
            Files.writeString(pem, TestKeys.masterPrivatePem());
            Files.setPosixFilePermissions(pem, PosixFilePermissions.fromString("r--------"));
        }
        return config;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
