package io.jsalt.master.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.config.MasterConfig;
import io.jsalt.master.Master;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.support.RecordedEvents;
import io.jsalt.master.support.TestKeys;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.message.AuthRequest;
import io.jsalt.transport.message.RequestEnvelope;
import io.jsalt.transport.message.SignedClear;
import java.util.Map;
import io.jsalt.transport.Transport;
import io.jsalt.transport.event.EventFrame;
import io.jsalt.transport.message.Topics;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * presence_events on a whole master in this JVM: real SUB sockets subscribing to minion topics on its
 * publish port stand for the minions, and the events fired on its bus are what the test reads.
 */
class PresenceEventsTest {
    private static final Duration WAIT = Duration.ofSeconds(15);

    @TempDir
    Path root;
    private final Transport transport = Transport.create();
    private final RecordedEvents events = new RecordedEvents();
    private Master master;

    @BeforeEach
    void startMaster() throws IOException {
        int publishPort = freePort();
        int retPort = freePort();
        while (retPort == publishPort) {
            retPort = freePort();
        }
        MasterConfig config = MasterConfig.builder(root)
                .interfaceAddress("127.0.0.1")
                .publishPort(publishPort)
                .retPort(retPort)
                .workerThreads(1)
                .set("presence_events", true)
                .set("loop_interval", 1)
                .build();
        Files.createDirectories(config.pkiDir());
        Path pem = config.pkiDir().resolve("master.pem");
        Files.writeString(pem, TestKeys.masterPrivatePem());
        Files.setPosixFilePermissions(pem, PosixFilePermissions.fromString("r--------"));
        master = new Master(config, Transport::create);
        master.events().addListener(events);
        master.start();
        for (String id : List.of("alpha", "beta", "ghost")) {
            master.keys().store(KeyState.ACCEPTED, id, TestKeys.pem(TestKeys.minion(1)));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @AfterEach
    void stop() {
        master.close();
        transport.close();
    }

    /** Subscribes as a jsalt minion does without zmq_filtering; "beta" as a salt-minion under zmq_filtering. */
    private Subscription subscriber(String id) {
        List<byte[]> topics = id.equals("beta")
                ? List.of(Topics.BROADCAST, Topics.ofMinion(id))
                : List.of(new byte[0], Topics.presenceOf(id));
        return transport.subscribe("127.0.0.1", master.publishPort(), topics, p -> { });
    }

    private List<Object> lastPresent() {
        List<EventFrame> present = events.tagged("salt/presence/present");
        return present.isEmpty() ? List.of() : List.copyOf((List<?>) present.get(present.size() - 1).data().get("present"));
    }

    /** A real {@code _auth} request on the request port, as a minion signs in with its key. */
    private void signIn(String id) {
        try (RequestClient client = transport.connectRequestClient("127.0.0.1", master.requestPort())) {
            Map<String, Object> load = new AuthRequest(id, "0123456789abcdef0123456789abcdef",
                    TestKeys.pem(TestKeys.minion(1)), null).toLoad();
            byte[] reply = client.request(new RequestEnvelope(RequestEnvelope.CLEAR, load, 2).encode(), WAIT);
            assertThat(SignedClear.open(reply, TestKeys.master().getPublic())).containsKey("aes");
        }
    }

    @Test
    void aSubscriptionToTheTopicOfAMinionThatNeverSignedInDoesNotMakeItPresent() {
        Subscription ghost = subscriber("ghost");
        signIn("alpha");
        Subscription alpha = subscriber("alpha");
        await().atMost(WAIT).until(() -> lastPresent().equals(List.of("alpha")));
        assertThat(events.tagged("salt/presence/present")).allSatisfy(e ->
                assertThat(List.<Object>copyOf((List<?>) e.data().get("present"))).doesNotContain("ghost"));
        ghost.close();
        alpha.close();
    }

    @Test
    void acceptedMinionsWithASubscriberArePresentAndOneWhoseSubscriberClosesIsLost() {
        signIn("alpha");
        signIn("beta");
        Subscription alpha = subscriber("alpha");
        Subscription beta = subscriber("beta");
        Subscription stranger = subscriber("not-accepted");
        await().atMost(WAIT).until(() -> lastPresent().equals(List.of("alpha", "beta")));
        List<EventFrame> changes = events.tagged("salt/presence/change");
        assertThat(changes).allSatisfy(e -> assertThat((List<?>) e.data().get("lost")).isEmpty());
        assertThat(changes.stream().<Object>flatMap(e -> ((List<?>) e.data().get("new")).stream()).toList())
                .containsExactlyInAnyOrder("alpha", "beta");

        beta.close();
        await().atMost(WAIT).until(() -> events.tagged("salt/presence/change").stream()
                .anyMatch(e -> e.data().get("lost").equals(List.of("beta"))));
        EventFrame lost = events.tagged("salt/presence/change").stream()
                .filter(e -> e.data().get("lost").equals(List.of("beta"))).findFirst().orElseThrow();
        assertThat((List<?>) lost.data().get("new")).isEmpty();
        await().atMost(WAIT).until(() -> lastPresent().equals(List.of("alpha")));
        alpha.close();
        stranger.close();
    }

    @Test
    void presenceIsFiredEveryRoundEvenWhenNobodyIsThere() {
        await().atMost(WAIT).until(() -> events.tagged("salt/presence/present").size() >= 2);
        assertThat(events.tagged("salt/presence/present")).allSatisfy(e -> assertThat(e.data().get("present")).isEqualTo(List.of()));
        assertThat(events.tagged("salt/presence/change")).isEmpty();
    }
}
