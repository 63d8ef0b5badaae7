package io.jsalt.minion.grains;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.config.MinionConfig;
import io.jsalt.minion.Minion;
import io.jsalt.minion.testing.FakeMaster;
import io.jsalt.minion.testing.SaltVectors;
import io.jsalt.transport.Transport;
import io.jsalt.transport.message.MinionSignature;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The grains a jsalt minion reports are signed with its key, so a jsalt master can trust them. */
class GrainsReportSignatureTest {
    @TempDir
    Path root;
    private Transport transport;
    private FakeMaster master;
    private Minion minion;

    @BeforeEach
    void startFakeMaster() {
        transport = Transport.create();
        master = new FakeMaster(transport);
    }

    @AfterEach
    void stop() {
        if (minion != null) {
            minion.close();
        }
        master.close();
        transport.close();
    }

    @Test
    void thePillarRequestCarryingTheGrainsIsSignedByTheMinionKey() throws Exception {
        MinionConfig config = MinionConfig.builder(root.resolve("web-1")).id("web-1").set("grains", Map.of("rack", 7))
                .master("127.0.0.1").masterPort(master.requestPort()).publishPort(master.publishPort())
                .acceptanceWaitTime(0.1).authTimeout(2).randomReauthDelay(0).reconDefault(100).reconRandomize(false).build();
        Files.createDirectories(config.pkiDir());
        Files.writeString(config.pkiDir().resolve("minion.pem"), SaltVectors.text("keys/minion.pem"));
        Files.writeString(config.pkiDir().resolve("minion.pub"), SaltVectors.text("keys/minion.pub"));
        minion = new Minion(config, transport);
        minion.start();

        await().atMost(Duration.ofSeconds(10)).until(() -> !master.loads("_pillar").isEmpty());

        Map<String, Object> load = master.loads("_pillar").get(0);
        assertThat(load).containsKey("sig").containsEntry("id", "web-1");
        assertThat(MinionSignature.valid(load, SaltVectors.minionKeyPair().getPublic())).isTrue();
        assertThat(MinionSignature.valid(load, SaltVectors.masterKeyPair().getPublic())).isFalse();
    }
}
