package io.jsalt.minion.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.crypto.Crypticle;
import io.jsalt.minion.auth.Session;
import io.jsalt.minion.channel.MasterChannel;
import io.jsalt.minion.testing.SaltVectors;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A minion re-checks each publication's target with its own id and grains before it runs the job. */
class JobRunnerTargetingTest {
    private static final KeyPair MASTER = SaltVectors.masterKeyPair();
    private static final KeyPair MINION = SaltVectors.minionKeyPair();

    @TempDir
    Path cachedir;

    private Transport transport;
    private RequestServer server;
    private RequestClient client;
    private JobRunner runner;
    private final AtomicReference<Session> session = new AtomicReference<>(
            new Session(new Crypticle(Crypticle.generateKeyString()), MASTER.getPublic(), 0));
    private final AtomicReference<Map<String, Object>> grains = new AtomicReference<>(
            Map.of("os", "Debian", "role", "web", "ipv4", List.of("10.0.0.5")));
    private final List<Object> returnedJids = new CopyOnWriteArrayList<>();
    private long serial;

    @BeforeEach
    void start() {
        transport = Transport.create();
        server = transport.bindRequestServer("127.0.0.1", 0, 1, frame -> {
            SessionCipher cipher = new SessionCipher(session.get().crypticle());
            Map<String, Object> load = cipher.decryptRequest(RequestEnvelope.decode(frame).aesLoad());
            returnedJids.add(load.get("jid"));
            return cipher.encryptReply(true, (String) load.get("nonce"));
        });
        client = transport.connectRequestClient("127.0.0.1", server.port());
        ModuleRegistry registry = ModuleRegistry.builtIn(SimpleModuleContext.builder().minionId("web1").cachedir(cachedir).build());
        MasterChannel channel = new MasterChannel(client, session::get, failed -> null, Duration.ofSeconds(2));
        runner = new JobRunner(new JobRunner.Settings("web1", 1, 0, 0, true, grains::get), registry, channel, MINION.getPrivate(),
                session::get, (s, f) -> { });
    }

    @AfterEach
    void stop() {
        runner.close();
        client.close();
        server.close();
        transport.close();
    }

    @Test
    void runsOnlyTheJobsWhoseTargetsItsGrainsMatch() {
        publish("os:Debian", "grain", "20260101000000000101");
        publish("os:RedHat", "grain", "20260101000000000102");
        publish("os:deb", "grain_pcre", "20260101000000000103");
        publish("10.0.0.0/24", "ipcidr", "20260101000000000104");
        publish("192.168.0.0/16", "ipcidr", "20260101000000000105");
        publish("G@role:web and not L@web2", "compound", "20260101000000000106");
        publish("( G@role:db or db* ) and web1", "compound", "20260101000000000107");
        publish("( N@group", "compound", "20260101000000000108");
        publish("web1", "glob", "20260101000000000109");

        await().atMost(Duration.ofSeconds(5)).until(() -> returnedJids.contains("20260101000000000109"));
        assertThat(returnedJids).containsExactlyInAnyOrder("20260101000000000101", "20260101000000000103",
                "20260101000000000104", "20260101000000000106", "20260101000000000109");
    }

    @Test
    void readsItsGrainsAnewForEachPublication() {
        publish("role:db", "grain", "20260101000000000111");
        grains.set(Map.of("role", "db"));
        publish("role:db", "grain", "20260101000000000112");

        await().atMost(Duration.ofSeconds(5)).until(() -> returnedJids.contains("20260101000000000112"));
        assertThat(returnedJids).containsExactly("20260101000000000112");
    }

    private void publish(Object tgt, String tgtType, String jid) {
        Map<String, Object> load = new PublishLoad("test.ping", List.of(), tgt, jid, "", tgtType, "root").toLoad();
        load.put("serial", ++serial);
        runner.onPublication(Publication.encode(session.get().crypticle(), MASTER.getPrivate(), load));
    }
}
