package io.jsalt.master.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.master.data.MinionDataCache;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.MemoryJobCache;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.publish.JobPublisher;
import io.jsalt.master.session.SessionKey;
import io.jsalt.master.support.RecordedEvents;
import io.jsalt.master.support.TestKeys;
import io.jsalt.master.targeting.TargetResolver;
import io.jsalt.transport.PublishServer;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.event.EventFrame;
import io.jsalt.transport.message.Publication;
import io.jsalt.transport.message.PublishLoad;
import io.jsalt.transport.message.PublishRequest;
import io.jsalt.transport.message.RequestEnvelope;
import io.jsalt.transport.message.Topics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code publish} from a local client, through a real publish port to real subscriptions. */
class PublishHandlerTest {
    private static final byte[] PROBE = "probe".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path root;
    KeyStore keys;
    Transport transport;
    RecordingPublishServer server;
    final SessionKey session = new SessionKey();
    final KeyPair master = TestKeys.master();
    final MemoryJobCache jobs = new MemoryJobCache();
    final RecordedEvents events = new RecordedEvents();
    final EventBus bus = new EventBus();
    final List<Subscription> subscriptions = new ArrayList<>();
    final MinionDataCache grains = new MinionDataCache();
    String clientSecret;
    ClientKey clientKey;

    @BeforeEach
    void setUp() throws IOException {
        keys = new KeyStore(root.resolve("pki"));
        String pem = TestKeys.pem(TestKeys.minion(0));
        for (String id : List.of("web1", "web2", "db1")) {
            keys.store(KeyState.ACCEPTED, id, pem);
        }
        keys.store(KeyState.PENDING, "web3", pem);
        keys.store(KeyState.REJECTED, "web4", pem);
        clientKey = ClientKey.create(root.resolve("cache"), "tester");
        clientSecret = ClientKey.read(root.resolve("cache"), "tester");
        bus.addListener(events);
        transport = Transport.create();
        server = new RecordingPublishServer(transport.bindPublisher("127.0.0.1", 0));
    }

    @AfterEach
    void tearDown() {
        subscriptions.forEach(Subscription::close);
        server.close();
        transport.close();
        jobs.close();
    }

    @Test
    void refusesABadClientKeyAndPublishesNothing() {
        PublishHandler handler = handler(false);
        BlockingQueue<byte[]> received = subscribe(List.of());

        for (String key : List.of("", "wrong", clientSecret + "x")) {
            Map<String, Object> reply = send(handler, request("*", "glob", key));
            assertThat(reply).isEqualTo(Map.of("enc", "clear", "load", Map.of("error", "Authentication error occurred.")));
        }
        Map<String, Object> noKey = new PublishRequest("*", "test.ping", List.of(), "glob", "root", null, Map.of()).toLoad();
        noKey.remove("key");
        assertThat(send(handler, noKey)).containsEntry("load", Map.of("error", "Authentication error occurred."));

        assertThat(server.calls).isEmpty();
        assertThat(events.all()).isEmpty();
        // the first publication that does go out still carries serial 1
        send(handler, request("*", "glob", clientSecret));
        assertThat(decode(next(received))).containsEntry("serial", 1L);
    }

    @Test
    void publishesAJobThatDecodesWithTheSessionKeyAndTheMasterKey() {
        PublishHandler handler = handler(false);
        BlockingQueue<byte[]> received = subscribe(List.of());
        PublishRequest req = new PublishRequest("web*", "test.echo", List.of("hello", Map.of("__kwarg__", true, "x", 1)),
                "glob", "root", clientSecret, Map.of());

        Map<String, Object> load = Wire.map(send(handler, wire(req.toLoad())), "load");

        String jid = Wire.string(load, "jid");
        assertThat(jid).matches("[0-9]{20}");
        assertThat(load).containsEntry("minions", List.of("web1", "web2")).containsEntry("missing", List.of());
        Map<String, Object> job = decode(next(received));
        assertThat(job).containsEntry("fun", "test.echo")
                .containsEntry("arg", List.of("hello", Map.of("__kwarg__", true, "x", 1L)))
                .containsEntry("tgt", "web*")
                .containsEntry("tgt_type", "glob")
                .containsEntry("jid", jid)
                .containsEntry("user", "root")
                .containsEntry("serial", 1L);
    }

    @Test
    void serialsCountUpFromOneAcrossPublications() {
        PublishHandler handler = handler(false);
        BlockingQueue<byte[]> received = subscribe(List.of());

        for (int i = 0; i < 3; i++) {
            send(handler, request("*", "glob", clientSecret));
        }

        assertThat(decode(next(received))).containsEntry("serial", 1L);
        assertThat(decode(next(received))).containsEntry("serial", 2L);
        assertThat(decode(next(received))).containsEntry("serial", 3L);
    }

    @Test
    void aPublicationIsSignedByTheMasterKey() {
        PublishHandler handler = handler(false);
        BlockingQueue<byte[]> received = subscribe(List.of());
        send(handler, request("*", "glob", clientSecret));

        byte[] frame = next(received);

        assertThat(Wire.asMap(SaltPack.unpack(frame))).containsKeys("enc", "load", "sig");
        org.assertj.core.api.Assertions.assertThatThrownBy(() ->
                Publication.decode(frame, session.crypticle(), TestKeys.minion(1).getPublic(), true))
                .isInstanceOf(io.jsalt.transport.codec.WireException.class);
    }

    @Test
    void withoutSignPubMessagesAPublicationCarriesNoSignature() {
        BlockingQueue<byte[]> received = subscribe(List.of());
        JobPublisher unsigned = new JobPublisher(server, session, null, false);

        unsigned.publish(new PublishLoad("test.ping", List.of(), "*", "20260101120000123456", "", "glob", "root"), List.of("web1"));

        byte[] frame = next(received);
        assertThat(Wire.asMap(SaltPack.unpack(frame))).containsOnlyKeys("enc", "load");
        assertThat(Publication.decode(frame, session.crypticle(), master.getPublic(), false))
                .containsEntry("jid", "20260101120000123456").containsEntry("serial", 1L);
    }

    @Test
    void resolvesTheExpectedMinionsFromAcceptedKeysOnly() {
        PublishHandler handler = handler(false);

        assertThat(minions(send(handler, request("*", "glob", clientSecret)))).containsExactly("db1", "web1", "web2");
        assertThat(minions(send(handler, request("web[12]", "glob", clientSecret)))).containsExactly("web1", "web2");
        assertThat(minions(send(handler, request("^web", "pcre", clientSecret)))).containsExactly("web1", "web2");
        assertThat(minions(send(handler, request("d.1", "pcre", clientSecret)))).containsExactly("db1");
        assertThat(minions(send(handler, request("nothing*", "glob", clientSecret)))).isEmpty();
    }

    @Test
    void reportsTheNamedMinionsOfAListTargetThatAreNotAcceptedAsMissing() {
        PublishHandler handler = handler(false);

        Map<String, Object> asList = Wire.map(send(handler, request(List.of("web1", "web3", "ghost"), "list", clientSecret)), "load");
        Map<String, Object> asString = Wire.map(send(handler, request("db1, web4", "list", clientSecret)), "load");

        assertThat(asList).containsEntry("minions", List.of("web1")).containsEntry("missing", List.of("web3", "ghost"));
        assertThat(asString).containsEntry("minions", List.of("db1")).containsEntry("missing", List.of("web4"));
    }

    @Test
    void firesJobNewAndStoresTheJobBeforeAnswering() {
        PublishHandler handler = handler(false);

        Map<String, Object> load = Wire.map(send(handler, request(List.of("web1", "ghost"), "list", clientSecret)), "load");

        String jid = Wire.string(load, "jid");
        EventFrame created = events.tagged("salt/job/" + jid + "/new").get(0);
        // first Salt's announcement under the bare jid: the minions targeted
        assertThat(events.all()).hasSize(2);
        assertThat(events.all().get(0).tag()).isEqualTo(jid);
        assertThat(events.all().get(0).data()).containsEntry("minions", List.of("web1")).containsKey("_stamp").hasSize(2);
        assertThat(created.data()).containsEntry("jid", jid).containsEntry("tgt_type", "list")
                .containsEntry("tgt", List.of("web1", "ghost")).containsEntry("user", "root")
                .containsEntry("fun", "test.ping").containsEntry("arg", List.of())
                .containsEntry("minions", List.of("web1")).containsEntry("missing", List.of("ghost"));
        assertThat(jobs.job(jid)).hasValueSatisfying(job -> {
            assertThat(job.fun()).isEqualTo("test.ping");
            assertThat(job.minions()).containsExactly("web1");
            assertThat(job.tgtType()).isEqualTo("list");
        });
    }

    @Test
    void eachPublishGetsItsOwnJid() {
        PublishHandler handler = handler(false);

        List<String> jids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            jids.add(Wire.string(Wire.map(send(handler, request("*", "glob", clientSecret)), "load"), "jid"));
        }

        assertThat(jids).doesNotHaveDuplicates().isSorted();
        assertThat(jids).allSatisfy(jid -> assertThat(jobs.job(jid)).isPresent());
    }

    @Test
    void withoutZmqFilteringOneSingleFrameReachesEverySubscriber() {
        PublishHandler handler = handler(false);
        BlockingQueue<byte[]> first = subscribe(List.of());
        BlockingQueue<byte[]> second = subscribe(List.of());

        send(handler, request(List.of("web1"), "list", clientSecret));

        assertThat(server.calls).singleElement().satisfies(c -> assertThat(c.topic()).isNull());
        assertThat(decode(next(first))).containsEntry("tgt", List.of("web1"));
        assertThat(decode(next(second))).containsEntry("tgt", List.of("web1"));
    }

    @Test
    void withZmqFilteringSendsOneTwoFrameMessagePerTargetedMinion() {
        PublishHandler handler = handler(true);
        BlockingQueue<byte[]> web1 = subscribe(List.of(Topics.ofMinion("web1")));
        BlockingQueue<byte[]> web2 = subscribe(List.of(Topics.ofMinion("web2")));
        BlockingQueue<byte[]> db1 = subscribe(List.of(Topics.ofMinion("db1")));

        send(handler, request("web*", "glob", clientSecret));

        assertThat(server.calls).hasSize(2);
        assertThat(server.calls).extracting(c -> new String(c.topic(), StandardCharsets.US_ASCII))
                .containsExactly(new String(Topics.ofMinion("web1"), StandardCharsets.US_ASCII),
                        new String(Topics.ofMinion("web2"), StandardCharsets.US_ASCII));
        assertThat(new String(Topics.ofMinion("web1"), StandardCharsets.US_ASCII)).matches("[0-9a-f]{40}");
        assertThat(server.calls.get(0).payload()).isEqualTo(server.calls.get(1).payload());
        assertThat(decode(next(web1))).containsEntry("serial", 1L).containsEntry("tgt", "web*");
        assertThat(decode(next(web2))).containsEntry("serial", 1L);

        // db1 was not targeted: the next thing it receives is the job that does target it
        send(handler, request("db1", "glob", clientSecret));
        assertThat(decode(next(db1))).containsEntry("serial", 2L).containsEntry("tgt", "db1");
        assertThat(web1).isEmpty();
    }

    @Test
    void withZmqFilteringAJobForNobodyIsNotSent() {
        PublishHandler handler = handler(true);

        Map<String, Object> load = Wire.map(send(handler, request("nobody*", "glob", clientSecret)), "load");

        assertThat(load).containsEntry("minions", List.of());
        assertThat(server.calls).isEmpty();
    }

    @Test
    void answersAnInvalidTargetWithAClearErrorAndPublishesNothing() {
        PublishHandler handler = handler(false);

        for (Map<String, Object> bad : List.of(request("web* and", "compound", clientSecret), request("( web1", "compound", clientSecret),
                request("ghosts", "nodegroup", clientSecret), request("os", "grain", clientSecret))) {
            Map<String, Object> load = Wire.map(send(handler, bad), "load");
            assertThat(Wire.string(load, "error")).startsWith("Invalid target: ");
        }
        assertThat(Wire.string(Wire.map(send(handler, request("( web1", "compound", clientSecret)), "load"), "error"))
                .contains("missing ')'");
        assertThat(server.calls).isEmpty();
        assertThat(events.all()).isEmpty();
    }

    @Test
    void publishesAGrainTargetToMatchingAndUndecidedMinionsButExpectsOnlyTheMatching() {
        grains.putGrains("web1", Map.of("os", "Debian"));
        grains.putGrains("db1", Map.of("os", "RedHat"));
        PublishHandler handler = handler(true);

        Map<String, Object> load = Wire.map(send(handler, request("os:Debian", "grain", clientSecret)), "load");

        assertThat(load).containsEntry("minions", List.of("web1")).containsEntry("undecided", List.of("web2"));
        assertThat(server.calls).extracting(c -> new String(c.topic(), StandardCharsets.US_ASCII))
                .containsExactly(new String(Topics.ofMinion("web1"), StandardCharsets.US_ASCII),
                        new String(Topics.ofMinion("web2"), StandardCharsets.US_ASCII));
        String jid = Wire.string(load, "jid");
        assertThat(jobs.job(jid)).hasValueSatisfying(job -> assertThat(job.minions()).containsExactly("web1"));
        assertThat(events.tagged("salt/job/" + jid + "/new").get(0).data()).containsEntry("minions", List.of("web1"));
    }

    @Test
    void publishesANodegroupAsItsCompoundExpression() {
        BlockingQueue<byte[]> received = subscribe(List.of());
        PublishHandler handler = handler(false);

        Map<String, Object> load = Wire.map(send(handler, request("webs", "nodegroup", clientSecret)), "load");

        assertThat(load).containsEntry("minions", List.of("web1", "web2"));
        assertThat(decode(next(received))).containsEntry("tgt_type", "compound").containsEntry("tgt", "web* and not web3");
        assertThat(jobs.job(Wire.string(load, "jid"))).hasValueSatisfying(job -> assertThat(job.tgtType()).isEqualTo("nodegroup"));
    }

    @Test
    void refusesAnUnknownTargetTypeThroughTheDispatcher() {
        RequestDispatcher dispatcher = new RequestDispatcher(session, Map.of("publish", handler(false)), Map.of());

        byte[] reply = dispatcher.handle(RequestEnvelope.clear(request("*", "grain_magic", clientSecret)).encode());

        assertThat(Wire.map(Wire.asMap(SaltPack.unpack(reply)), "load")).containsKey("error");
        assertThat(server.calls).isEmpty();
        assertThat(events.all()).isEmpty();
    }

    // --- helpers

    private PublishHandler handler(boolean zmqFiltering) {
        JobPublisher publisher = new JobPublisher(server, session, master.getPrivate(), zmqFiltering);
        TargetResolver targets = new TargetResolver(keys, grains, Map.of("webs", "web* and not web3"));
        return new PublishHandler(clientKey, targets, jobs, new Jids(), bus, publisher);
    }

    private static Map<String, Object> request(Object tgt, String tgtType, String key) {
        return wire(new PublishRequest(tgt, "test.ping", List.of(), tgtType, "root", key, Map.of()).toLoad());
    }

    private static Map<String, Object> wire(Map<String, Object> load) {
        return Wire.asMap(SaltPack.unpack(SaltPack.pack(load)));
    }

    private static Map<String, Object> send(PublishHandler handler, Map<String, Object> load) {
        return Wire.asMap(SaltPack.unpack(handler.handle(load)));
    }

    private static List<Object> minions(Map<String, Object> reply) {
        return Wire.list(Wire.map(reply, "load"), "minions");
    }

    private Map<String, Object> decode(byte[] frame) {
        return Publication.decode(frame, session.crypticle(), master.getPublic(), true);
    }

    private static byte[] next(BlockingQueue<byte[]> received) {
        try {
            byte[] frame = received.poll(5, TimeUnit.SECONDS);
            assertThat(frame).as("a publication within 5 s").isNotNull();
            return frame;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /**
     * Subscribes and waits until probes published straight on the socket (bypassing the recorder) arrive,
     * so the subscription is live; probes are then dropped and never reach the queue.
     */
    private BlockingQueue<byte[]> subscribe(List<byte[]> topics) {
        BlockingQueue<byte[]> received = new LinkedBlockingQueue<>();
        List<byte[]> probes = new CopyOnWriteArrayList<>();
        Subscription sub = transport.subscribe("127.0.0.1", server.port(), topics, frame -> {
            if (Arrays.equals(frame, PROBE)) {
                probes.add(frame);
            } else {
                received.add(frame);
            }
        });
        subscriptions.add(sub);
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            if (topics.isEmpty()) {
                server.delegate.publish(PROBE);
            } else {
                topics.forEach(t -> server.delegate.publish(t, PROBE));
            }
            return !probes.isEmpty();
        });
        return received;
    }

    /** The real publisher, with a record of each call the JobPublisher makes. */
    static final class RecordingPublishServer implements PublishServer {
        record Call(byte[] topic, byte[] payload) {}

        final PublishServer delegate;
        final List<Call> calls = new CopyOnWriteArrayList<>();

        RecordingPublishServer(PublishServer delegate) {
            this.delegate = delegate;
        }

        @Override
        public void publish(byte[] payload) {
            calls.add(new Call(null, payload));
            delegate.publish(payload);
        }

        @Override
        public void publish(byte[] topic, byte[] payload) {
            calls.add(new Call(topic, payload));
            delegate.publish(topic, payload);
        }

        @Override
        public int port() {
            return delegate.port();
        }

        @Override
        public void close() {
            delegate.close();
        }
    }
}
