package io.jsalt.e2e.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.crypto.RsaKeys;
import io.jsalt.e2e.Cluster;
import io.jsalt.e2e.EventTap;
import io.jsalt.minion.auth.MasterKeyPin;
import io.jsalt.minion.auth.SignIn;
import io.jsalt.minion.auth.SignInResult;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Transport;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.message.RequestEnvelope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stranger who can reach the request port and holds no key: what it sends is refused, costs one log line,
 * forges none, and leaves a bounded number of files behind.
 */
@Tag("security")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StrangerAttackTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int MAX_PENDING = 8;

    private Cluster cluster;
    private Transport transport;
    private EventTap tap;

    @BeforeAll
    void start(@TempDir Path tmp) throws IOException {
        cluster = new Cluster(tmp);
        cluster.startMaster("max_pending_minions: " + MAX_PENDING);
        transport = Transport.create();
        tap = EventTap.connect(cluster.masterSockDir(), WAIT);
    }

    @AfterAll
    void stop() {
        tap.close();
        transport.close();
        cluster.close();
    }

    private Object request(byte[] frame) {
        try (RequestClient client = transport.connectRequestClient("127.0.0.1", cluster.retPort)) {
            return SaltPack.unpack(client.request(frame, Duration.ofSeconds(10)));
        }
    }

    private static byte[] clear(Map<String, Object> load) {
        return RequestEnvelope.clear(load).encode();
    }

    @Test
    void onlyAllowlistedCommandsRunAndNoneWithoutItsKey() {
        for (String cmd : List.of("_return", "_pillar", "_minion_event", "_file_list", "__init__", "__class__",
                "_prep_auth_info", "mk_token", "get_token", "publish", "runner", "wheel")) {
            Map<String, Object> load = new LinkedHashMap<>();
            load.put("cmd", cmd);
            load.put("id", "web1");
            load.put("fun", "key.accept");
            load.put("tgt", "*");
            load.put("arg", List.of());
            load.put("key", "not-the-key");
            Object reply = request(clear(load));
            assertThat(reply).as(cmd).isInstanceOf(Map.class);
            assertThat(Wire.map(Wire.asMap(reply), "load")).as(cmd).containsKey("error");
        }
        assertThat(tap.matching(e -> e.tag().startsWith("salt/job/") || e.tag().startsWith("salt/run/")
                || e.tag().startsWith("salt/wheel/"))).isEmpty();
        assertThat(cluster.masterProcess().isAlive()).isTrue();
    }

    @Test
    void aNewlineInTheEncodingOrTheCommandForgesNoLogLine() {
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("enc", "clear\nFORGED-ENC 00:00:00.000 INFO  [main] io.jsalt.master.Master - all is well");
        envelope.put("load", Map.of("cmd", "ping"));
        envelope.put("version", 2);
        request(SaltPack.pack(envelope));
        request(clear(Map.of("cmd", "ping\nFORGED-CMD master - all is well")));

        await().atMost(WAIT).until(() -> Cluster.read(cluster.masterLog()).contains("unknown request encoding"));
        List<String> lines = Cluster.read(cluster.masterLog()).lines().toList();
        assertThat(lines).noneMatch(l -> l.startsWith("FORGED"));
        assertThat(lines).anyMatch(l -> l.contains("unknown request encoding: 'clear?FORGED-ENC"));
    }

    @Test
    void aFloodOfSignInsUnderRandomIdsLeavesAtMostMaxPendingMinionsKeys(@TempDir Path pins) throws IOException {
        KeyPair key = RsaKeys.generate();
        try (RequestClient client = transport.connectRequestClient("127.0.0.1", cluster.retPort)) {
            for (int i = 0; i < 40; i++) {
                SignInResult r = new SignIn("flood-" + i, key, new MasterKeyPin(pins, ""), client, Duration.ofSeconds(10)).attempt();
                assertThat(r).as("every one is asked to wait").isInstanceOf(SignInResult.Pending.class);
            }
        }
        try (Stream<Path> pending = Files.list(cluster.masterPki().resolve("minions_pre"))) {
            assertThat(pending.count()).isEqualTo(MAX_PENDING);
        }
        assertThat(Cluster.read(cluster.masterLog())).contains("max_pending_minions (" + MAX_PENDING + ") keys already wait");
    }
}
