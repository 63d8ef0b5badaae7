package io.jsalt.minion.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.crypto.Crypticle;
import io.jsalt.minion.auth.Session;
import io.jsalt.minion.channel.MasterChannel;
import io.jsalt.minion.modules.ModuleSource;
import io.jsalt.minion.returns.Returner;
import io.jsalt.minion.saltutil.SaltutilModule;
import io.jsalt.minion.testing.SaltVectors;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.JobControl;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.Transport;
import io.jsalt.transport.message.Publication;
import io.jsalt.transport.message.PublishLoad;
import io.jsalt.transport.message.RequestEnvelope;
import io.jsalt.transport.message.SessionCipher;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Running jobs as saltutil sees them: proc records while a job runs, kill_job and term_job ending its child
 * processes, and a job's own timeout. The runner returns to a fake master over a real socket.
 */
class JobControlTest {
    private static final KeyPair MASTER = SaltVectors.masterKeyPair();
    private static final KeyPair MINION = SaltVectors.minionKeyPair();
    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path cachedir;

    private final Session session = new Session(new Crypticle(Crypticle.generateKeyString()), MASTER.getPublic(), 0);
    private final List<Map<String, Object>> returns = new CopyOnWriteArrayList<>();
    private final AtomicLong serial = new AtomicLong();
    private Transport transport;
    private RequestServer server;
    private RequestClient client;
    private Returner returner;
    private RunningJobs running;
    private ProcRecords records;
    private JobRunner runner;
    private SaltutilModule saltutil;

    /** Starts {@code sleep 60}, reports it, and waits for it without killing it when interrupted. */
    @SaltModule(name = "probe", doc = "Test helper.")
    public static final class ProbeModule implements ExecutionModule {
        @SaltFunction(doc = "Starts a long child process and waits for it.")
        public String spawn(JobControl job) throws Exception {
            Process child = new ProcessBuilder("sleep", "60").start();
            job.childStarted(child.toHandle());
            child.waitFor();
            return "done";
        }
    }

    @BeforeEach
    void start() {
        transport = Transport.create();
        server = transport.bindRequestServer("127.0.0.1", 0, 1, frame -> {
            SessionCipher cipher = new SessionCipher(session.crypticle());
            Map<String, Object> load = new LinkedHashMap<>(cipher.decryptRequest(RequestEnvelope.decode(frame).aesLoad()));
            String nonce = (String) load.remove("nonce");
            returns.add(load);
            return cipher.encryptReply(true, nonce);
        });
        client = transport.connectRequestClient("127.0.0.1", server.port());
        MasterChannel channel = new MasterChannel(client, () -> session, failed -> null, Duration.ofSeconds(2));
        returner = new Returner("web-1", channel, null, 1, 1);
        records = new ProcRecords(cachedir.resolve("proc"));
        running = new RunningJobs(records, "web-1");
        saltutil = new SaltutilModule(running, () -> { }, () -> { }, cachedir.resolve("extmods/modules"));
        ModuleRegistry registry = ModuleRegistry.builder(SimpleModuleContext.builder().minionId("web-1").cachedir(cachedir).build())
                .addDiscovered(ModuleRegistry.class.getClassLoader()).addModule(new ProbeModule()).addModule(saltutil).build();
        runner = new JobRunner(new JobRunner.Settings("web-1", 4, 1, 1, true), ModuleSource.fixed(registry), running, returner,
                MINION.getPrivate(), () -> session, (s, frame) -> { });
    }

    @AfterEach
    void stop() {
        running.list().forEach(job -> job.end(RunningJob.Ending.KILLED, false));
        runner.close();
        running.close();
        returner.close();
        client.close();
        server.close();
        transport.close();
    }

    private void publish(String fun, String jid, Map<String, Object> extra) {
        Map<String, Object> load = new PublishLoad(fun, List.of(), "*", jid, "", "glob", "root").toLoad();
        load.putAll(extra);
        load.put("serial", serial.getAndIncrement());
        runner.onPublication(Publication.encode(session.crypticle(), MASTER.getPrivate(), load));
    }

    private ProcessHandle awaitChild(String jid) {
        await().atMost(WAIT).until(() -> running.find(jid).map(j -> !j.liveChildren().isEmpty()).orElse(false));
        return running.find(jid).orElseThrow().liveChildren().get(0);
    }

    private List<Object> returnedJids() {
        return returns.stream().map(r -> r.get("jid")).toList();
    }

    @Test
    void aRunningJobHasAProcRecordListingItsChildUntilItEnds() {
        publish("probe.spawn", "20260101000000000001", Map.of());
        ProcessHandle child = awaitChild("20260101000000000001");

        await().atMost(WAIT).until(() -> records.read("20260101000000000001") != null
                && ((List<?>) records.read("20260101000000000001").get("child_pids")).contains(child.pid()));
        Map<String, Object> record = records.read("20260101000000000001");
        assertThat(record).containsEntry("jid", "20260101000000000001").containsEntry("fun", "probe.spawn")
                .containsEntry("tgt", "*").containsEntry("tgt_type", "glob").containsEntry("user", "root")
                .containsEntry("pid", ProcessHandle.current().pid()).containsKeys("arg", "start_time");
        assertThat(saltutil.find_job("20260101000000000001")).containsEntry("fun", "probe.spawn");
        assertThat(saltutil.running()).extracting(m -> m.get("jid")).containsExactly("20260101000000000001");

        saltutil.kill_job("20260101000000000001");

        await().atMost(WAIT).until(() -> records.read("20260101000000000001") == null);
        assertThat(saltutil.find_job("20260101000000000001")).isEmpty();
        assertThat(saltutil.running()).isEmpty();
    }

    @Test
    void killJobEndsTheJobsChildWithinASecondAndTheJobSendsNoReturn() {
        publish("probe.spawn", "20260101000000000002", Map.of());
        ProcessHandle child = awaitChild("20260101000000000002");

        String answer = saltutil.kill_job("20260101000000000002");

        assertThat(answer).isEqualTo("Signal 9 sent to job 20260101000000000002 at pid " + ProcessHandle.current().pid());
        await().atMost(Duration.ofSeconds(1)).until(() -> !child.isAlive());
        await().atMost(WAIT).until(() -> running.find("20260101000000000002").isEmpty());
        publish("test.ping", "20260101000000000003", Map.of());
        await().atMost(WAIT).until(() -> returnedJids().contains("20260101000000000003"));
        assertThat(returnedJids()).doesNotContain("20260101000000000002");
    }

    @Test
    void termJobSendsTheChildSigtermAndEndsTheJob() {
        publish("probe.spawn", "20260101000000000004", Map.of());
        ProcessHandle child = awaitChild("20260101000000000004");

        assertThat(saltutil.term_job("20260101000000000004")).startsWith("Signal 15 sent to job 20260101000000000004");

        await().atMost(Duration.ofSeconds(1)).until(() -> !child.isAlive());
        await().atMost(WAIT).until(() -> running.find("20260101000000000004").isEmpty());
    }

    @Test
    void aJobPastItsTimeoutIsEndedAndAnswersAnError() {
        publish("probe.spawn", "20260101000000000005", Map.of("timeout", 0.5));
        ProcessHandle child = awaitChild("20260101000000000005");

        await().atMost(WAIT).until(() -> returnedJids().contains("20260101000000000005"));

        Map<String, Object> ret = returns.stream().filter(r -> "20260101000000000005".equals(r.get("jid"))).findFirst().orElseThrow();
        assertThat(ret).containsEntry("retcode", 1L).containsEntry("success", false);
        assertThat((String) ret.get("return")).contains("timed out after 0.5 s");
        await().atMost(Duration.ofSeconds(1)).until(() -> !child.isAlive());
    }

    @Test
    void signallingAJobThatDoesNotRunAnswersNothingAsSaltDoes() {
        assertThat(saltutil.signal_job("20260101000000000009", 9)).isEmpty();
        assertThat(saltutil.kill_job("20260101000000000009")).isEmpty();
        assertThat(saltutil.find_job("20260101000000000009")).isEmpty();
    }
}
