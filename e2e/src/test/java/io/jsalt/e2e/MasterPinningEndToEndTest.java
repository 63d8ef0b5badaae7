package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.crypto.RsaKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A minion trusts only the master key it pinned (or master_finger names), and keeps running otherwise. */
@org.junit.jupiter.api.Tag("security") // the master key pin keeps holding: see docs/security.md
class MasterPinningEndToEndTest {
    @TempDir
    Path tmp;

    private Cluster cluster;

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void aMinionPinnedToAnotherMasterKeyRefusesToSignInAndKeepsRunning() throws Exception {
        cluster = new Cluster(tmp);
        Path pki = cluster.minionPki("wary");
        Files.createDirectories(pki);
        RsaKeys.writePublicKey(pki.resolve("minion_master.pub"), RsaKeys.generate().getPublic());
        cluster.startMaster("auto_accept: True");
        Process minion = cluster.startMinion("wary");

        await().atMost(Duration.ofSeconds(30)).until(() ->
                Cluster.read(cluster.minionLog("wary")).contains("refusing to sign in: the master presented a key other than"));
        Cluster.Result ping = cluster.jsalt("-t", "2", "wary", "test.ping");
        assertThat(ping.exitCode()).as(ping.toString()).isEqualTo(2);
        assertThat(ping.stdout()).as("it never subscribed to the master's publications")
                .contains("wary:\n    Minion did not return. [Not connected]");
        assertThat(minion.isAlive()).as("the minion keeps running and retrying").isTrue();
    }

    @Test
    void aMinionWithAWrongMasterFingerRefusesToSignIn() throws Exception {
        cluster = new Cluster(tmp);
        cluster.startMaster("auto_accept: True");
        String wrong = "aa:" + "bb:".repeat(30) + "cc";
        Process minion = cluster.startMinion("strict", "master_finger: '" + wrong + "'");

        await().atMost(Duration.ofSeconds(30)).until(() ->
                Cluster.read(cluster.minionLog("strict")).contains("does not match master_finger"));
        assertThat(Files.exists(cluster.minionPki("strict").resolve("minion_master.pub"))).as("nothing pinned").isFalse();
        assertThat(minion.isAlive()).isTrue();
    }
}
