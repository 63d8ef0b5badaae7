package io.jsalt.master.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.jsalt.transport.event.EventFrame;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The master's local event socket and its reader, as jsalt and jsalt-event use them. */
class LocalEventServerTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    @TempDir
    Path root;
    Path sockDir;
    final EventBus bus = new EventBus();
    LocalEventServer server;
    final List<AutoCloseable> toClose = new ArrayList<>();

    @BeforeEach
    void setUp() {
        sockDir = root.resolve("var/run/jsalt/master");
        server = new LocalEventServer(sockDir);
        bus.addListener(server);
    }

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
        server.close();
    }

    @Test
    void theSocketIsOwnerOnlyInAnOwnerOnlyFolder() throws IOException {
        Path socket = LocalEventServer.socketPath(sockDir);

        assertThat(socket.getFileName().toString()).isEqualTo("master_event_pub.ipc");
        assertThat(Files.exists(socket)).isTrue();
        assertThat(mode(socket)).isEqualTo("rw-------");
        assertThat(mode(sockDir)).isEqualTo("rwx------");
    }

    @Test
    void closeRemovesTheSocketFile() {
        server.close();
        assertThat(LocalEventServer.socketPath(sockDir)).doesNotExist();
    }

    @Test
    void aStaleSocketFileFromACrashIsReplaced() throws IOException {
        server.close();
        Files.writeString(LocalEventServer.socketPath(sockDir), "stale");

        server = new LocalEventServer(sockDir);
        bus.addListener(server);
        LocalEventClient client = connect();
        bus.fire("after/restart", Map.of());

        assertThat(client.next(WAIT)).hasValueSatisfying(e -> assertThat(e.tag()).isEqualTo("after/restart"));
    }

    @Test
    void everyEventFiredAfterConnectReturnsArrivesInOrder() throws IOException {
        LocalEventClient client = connect();

        for (int i = 0; i < 2000; i++) {
            bus.fire("salt/job/" + i + "/new", Map.of("n", i));
        }

        for (int i = 0; i < 2000; i++) {
            Optional<EventFrame> e = client.next(WAIT);
            assertThat(e).as("event %d", i).isPresent();
            assertThat(e.get().tag()).isEqualTo("salt/job/" + i + "/new");
            assertThat(e.get().data()).containsEntry("n", (long) i).containsKey("_stamp");
        }
        assertThat(client.next(Duration.ofMillis(50))).isEmpty();
    }

    @Test
    void twoReadersBothGetEveryEvent() throws IOException {
        LocalEventClient first = connect();
        LocalEventClient second = connect();

        bus.fire("one", Map.of());
        bus.fire("two", Map.of());

        for (LocalEventClient c : List.of(first, second)) {
            assertThat(c.next(WAIT)).hasValueSatisfying(e -> assertThat(e.tag()).isEqualTo("one"));
            assertThat(c.next(WAIT)).hasValueSatisfying(e -> assertThat(e.tag()).isEqualTo("two"));
        }
    }

    @Test
    void aReaderLearnsWhenTheMasterGoesAway() throws IOException {
        LocalEventClient client = connect();

        server.close();

        assertThatThrownBy(() -> {
            for (int i = 0; i < 100; i++) {
                client.next(WAIT);
            }
        }).isInstanceOf(IOException.class);
        assertThat(client.isDisconnected()).isTrue();
    }

    @Test
    void connectFailsWhenNoMasterListens() {
        server.close();
        assertThatThrownBy(() -> LocalEventClient.connect(sockDir, WAIT)).isInstanceOf(IOException.class);
    }

    @Test
    void aReaderThatStopsReadingIsDisconnectedAndTheBusKeepsServingTheOthers() throws Exception {
        LocalEventClient good = connect();
        SocketChannel stuck = SocketChannel.open(StandardProtocolFamily.UNIX);
        toClose.add(stuck);
        stuck.connect(UnixDomainSocketAddress.of(LocalEventServer.socketPath(sockDir)));
        ByteBuffer registered = ByteBuffer.allocate(4);
        assertTimeoutPreemptively(WAIT, () -> {
            while (registered.hasRemaining()) {
                stuck.read(registered);
            }
        });
        assertThat(registered.flip().getInt()).as("the registration marker").isZero();

        // far more than the 10,000 events a reader may have queued, plus what the socket buffers hold
        Map<String, Object> payload = Map.of("blob", "x".repeat(1000));
        int fired = 0;
        for (int batch = 0; batch < 16; batch++) {
            for (int i = 0; i < 1000; i++) {
                bus.fire("load/" + fired++, payload);
            }
            for (int i = fired - 1000; i < fired; i++) {
                Optional<EventFrame> e = good.next(WAIT);
                assertThat(e).as("event %d", i).isPresent();
                assertThat(e.get().tag()).isEqualTo("load/" + i);
            }
        }

        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            ByteBuffer sink = ByteBuffer.allocate(1 << 16);
            while (stuck.read(sink) >= 0) {
                sink.clear();
            }
        }, "the stuck reader is disconnected: it reads what was buffered, then the end of the stream");

        bus.fire("still/working", Map.of());
        assertThat(good.next(WAIT)).hasValueSatisfying(e -> assertThat(e.tag()).isEqualTo("still/working"));
        assertThat(good.isDisconnected()).isFalse();
    }

    @Test
    void aCallerThatStopsCallingNextHoldsAtMostCapacityEventsAndLearnsItWasLeftBehind() throws Exception {
        LocalEventClient lagging = connect();
        Map<String, Object> payload = Map.of("blob", "x".repeat(1000));
        int fired = 0;
        // first what its queue holds (the master's queue for it holds as many, so none is dropped however fast
        // they are fired), then more than the master's queue and the socket's buffers together
        while (fired < LocalEventClient.CAPACITY) {
            bus.fire("load/" + fired++, payload);
        }
        await().atMost(WAIT).until(() -> lagging.queued() == LocalEventClient.CAPACITY);
        while (fired < 2 * LocalEventClient.CAPACITY + 12_000) {
            bus.fire("load/" + fired++, payload);
        }
        assertThat(lagging.queued()).isEqualTo(LocalEventClient.CAPACITY);

        // it reads what it was given, then learns that the master gave up on it
        int total = fired;
        org.assertj.core.api.ThrowableAssert.ThrowingCallable drain = () -> {
            for (int i = 0; i < total; i++) {
                lagging.next(WAIT);
            }
        };
        assertThatThrownBy(drain).isInstanceOf(IOException.class);
        assertThat(lagging.isDisconnected()).isTrue();
        assertThat(lagging.queued()).isZero();
    }

    private LocalEventClient connect() throws IOException {
        LocalEventClient client = LocalEventClient.connect(sockDir, WAIT);
        toClose.add(client);
        return client;
    }

    private static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }
}
