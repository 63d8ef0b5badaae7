package io.jsalt.bench.swarm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.bench.swarm.zmtp.NioSwarmTransport;
import io.jsalt.config.MasterConfig;
import io.jsalt.master.Master;
import io.jsalt.master.jobs.JobReturn;
import io.jsalt.master.request.ClientKey;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Transport;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.message.PublishRequest;
import io.jsalt.transport.message.RequestEnvelope;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A light swarm on its own ZMTP ({@link NioSwarmTransport}) against a real jsalt master in this JVM: every minion
 * signs in with its own key, gets each job on its own subscription, and its MAC'd return (over a request connection
 * closed 200 ms after use, so the second job reconnects, as the 10,000 fan-out does) is in the job cache, verified.
 */
@Timeout(120)
class LightSwarmOverZmtpTest {
    private static final int MINIONS = 8;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path root;

    @Test
    void everyMinionSignsInAndEveryReturnIsStored() throws Exception {
        Path keyDir = root.resolve("keys");
        KeyCache keys = new KeyCache(keyDir);
        keys.ensure(MINIONS, 2);
        List<String> ids = KeyCache.ids(0, MINIONS);
        int publishPort = freePort();
        int retPort = freePort();
        while (retPort == publishPort) {
            retPort = freePort();
        }
        MasterConfig config = MasterConfig.builder(root.resolve("master")).interfaceAddress("127.0.0.1").publishPort(publishPort)
                .retPort(retPort).workerThreads(2).build();
        keys.preAccept(config.pkiDir(), ids);
        SwarmSettings settings = new SwarmSettings(root.resolve("swarm"), keyDir, retPort, publishPort, 0, MINIONS, 10, 1,
                true, "light", 0, 200); // signReturns as the fan-out runs them: each return MAC'd (its session has a return secret)
        List<LightMinion> minions = new ArrayList<>();
        try (Master master = new Master(config, Transport::create);
                Transport swarmTransport = new NioSwarmTransport();
                LightMinion.Shared shared = new LightMinion.Shared(settings);
                Transport cliTransport = Transport.create()) {
            master.start();
            try {
                runTwoJobs(master, config, ids, keys, shared, swarmTransport, cliTransport, minions);
            } finally {
                minions.forEach(LightMinion::close); // before the shared pools they hand work to
            }
        }
    }

    private static void runTwoJobs(Master master, MasterConfig config, List<String> ids, KeyCache keys, LightMinion.Shared shared,
            Transport swarmTransport, Transport cliTransport, List<LightMinion> minions) throws IOException {
        for (String id : ids) {
            minions.add(new LightMinion(shared, id, keys, swarmTransport));
        }
        minions.forEach(LightMinion::start);
        await().atMost(WAIT).until(() -> minions.stream().allMatch(LightMinion::isSignedIn));

        RequestClient cli = cliTransport.connectRequestClient("127.0.0.1", master.requestPort());
        String secret = ClientKey.read(config.cachedir(), System.getProperty("user.name"));
        for (int job = 0; job < 2; job++) {
            // a subscription may still be on its way to the publisher: publish again until every minion answered;
            // the first publish comes one poll interval (2 s) after the last job's returns, whose request
            // connections have closed by then (200 ms), so each return of the second job opens a new one
            List<String> jids = new ArrayList<>();
            await().atMost(WAIT).pollInterval(Duration.ofSeconds(2)).until(() -> {
                jids.add(publish(cli, secret));
                return jids.stream().anyMatch(jid -> returnIds(master, jid).size() == MINIONS);
            });
            String jid = jids.stream().filter(j -> returnIds(master, j).size() == MINIONS).findFirst().orElseThrow();
            assertThat(returnIds(master, jid)).containsExactlyInAnyOrderElementsOf(ids);
            assertThat(master.jobs().returns(jid)).allSatisfy(r -> {
                assertThat(r.ret()).isEqualTo(true);
                assertThat(r.verified()).as("MAC'd with its own return secret").isTrue();
            });
        }
        cli.close();
    }

    private static List<String> returnIds(Master master, String jid) {
        return master.jobs().returns(jid).stream().map(JobReturn::id).toList();
    }

    private static String publish(RequestClient cli, String secret) {
        Map<String, Object> reply = Wire.asMap(SaltPack.unpack(cli.request(RequestEnvelope.clear(
                new PublishRequest("bench-*", "test.ping", List.of(), "glob", "bench", secret, Map.of()).toLoad()).encode(),
                Duration.ofSeconds(10))));
        return Wire.string(Wire.map(reply, "load"), "jid");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
