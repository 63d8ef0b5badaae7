package io.jsalt.transport.zmq;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestHandler;
import io.jsalt.transport.RequestLimits;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.RequestServerKind;
import io.jsalt.transport.RequestTimeoutException;
import io.jsalt.transport.Transport;
import io.jsalt.transport.TransportException;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.message.RequestEnvelope;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/** The request port on real JeroMQ sockets over 127.0.0.1: a ROUTER feeding worker threads, and REQ clients. */
@ParameterizedClass
@EnumSource(RequestServerKind.class)
class RequestServerTest {
    @Parameter
    RequestServerKind kind;
    private static final String HOST = "127.0.0.1";
    private static final Duration ANSWER = Duration.ofSeconds(5);
    private static final RequestHandler ECHO = request -> ("re:" + new String(request, UTF_8)).getBytes(UTF_8);

    private final Transport transport = Transport.create();
    private final List<AutoCloseable> opened = new ArrayList<>();
    private final ExecutorService pool = Executors.newFixedThreadPool(16);
    private ZContext rawContext;

    @AfterEach
    void closeEverything() throws Exception {
        pool.shutdownNow();
        assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        Collections.reverse(opened);
        for (AutoCloseable c : opened) {
            c.close();
        }
        if (rawContext != null) {
            rawContext.close();
        }
        transport.close();
    }

    private <T extends AutoCloseable> T open(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    private RequestServer server(int workers, RequestHandler handler) {
        return open(bind(0, workers, handler));
    }

    private RequestServer bind(int port, int workers, RequestHandler handler) {
        return transport.bindRequestServer(HOST, port, workers, handler, RequestLimits.DEFAULTS, kind);
    }

    private RequestClient client(int port) {
        return open(transport.connectRequestClient(HOST, port));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(UTF_8);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return s.getLocalPort();
        }
    }

    @Test
    void answersARequestWithTheHandlersReply() {
        RequestServer server = server(2, ECHO);

        byte[] reply = client(server.port()).request(utf8("hello"), ANSWER);

        assertThat(server.port()).isPositive();
        assertThat(reply).asString(UTF_8).isEqualTo("re:hello");
    }

    @Test
    void answersSuccessiveRequestsOnOneClientInOrder() {
        RequestClient client = client(server(1, ECHO).port());

        for (int i = 0; i < 20; i++) {
            assertThat(client.request(utf8("n" + i), ANSWER)).asString(UTF_8).isEqualTo("re:n" + i);
        }
    }

    @Test
    void answersManyConcurrentClientsEachWithItsOwnReply() throws Exception {
        int port = server(4, ECHO).port();
        List<Future<List<String>>> results = new ArrayList<>();
        for (int c = 0; c < 16; c++) {
            RequestClient client = client(port);
            String name = "client" + c;
            results.add(pool.submit(() -> {
                List<String> replies = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    replies.add(new String(client.request(utf8(name + "/" + i), ANSWER), UTF_8));
                }
                return replies;
            }));
        }

        for (int c = 0; c < 16; c++) {
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                expected.add("re:client" + c + "/" + i);
            }
            assertThat(results.get(c).get(30, TimeUnit.SECONDS)).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void givesEachThreadSharingOneClientItsOwnAnswer() throws Exception {
        RequestClient shared = client(server(2, ECHO).port());
        List<Future<List<String>>> results = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            String name = "thread" + t;
            results.add(pool.submit(() -> {
                List<String> replies = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    replies.add(new String(shared.request(utf8(name + "/" + i), ANSWER), UTF_8));
                }
                return replies;
            }));
        }

        for (int t = 0; t < 4; t++) {
            List<String> replies = results.get(t).get(30, TimeUnit.SECONDS);
            for (int i = 0; i < 10; i++) {
                assertThat(replies.get(i)).isEqualTo("re:thread" + t + "/" + i);
            }
        }
    }

    @Test
    void aReplyGivenLaterFromAnotherThreadReachesItsClientWhileTheWorkerServesTheNextRequests() throws Exception {
        // answers nothing on the worker: keeps each request's reply for later, as a return waits for its commit
        Map<String, java.util.function.Consumer<byte[]>> later = new ConcurrentHashMap<>();
        RequestHandler deferring = new RequestHandler() {
            @Override
            public byte[] handle(byte[] request) {
                throw new AssertionError("the server asks for the answer through the reply it hands over");
            }

            @Override
            public void handle(byte[] request, java.util.function.Consumer<byte[]> reply) {
                later.put(new String(request, UTF_8), reply);
            }
        };
        int port = server(1, deferring).port();
        List<Future<String>> replies = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            RequestClient client = client(port);
            String name = "c" + c;
            replies.add(pool.submit(() -> new String(client.request(utf8(name), ANSWER), UTF_8)));
        }
        // one worker took all three: it was not held until the first was answered
        await().atMost(ANSWER).until(() -> later.size() == 3);

        Thread answering = new Thread(() -> {
            for (int c = 2; c >= 0; c--) {
                later.get("c" + c).accept(utf8("later:c" + c));
            }
        }, "not-a-worker");
        answering.start();

        for (int c = 0; c < 3; c++) {
            assertThat(replies.get(c).get(30, TimeUnit.SECONDS)).isEqualTo("later:c" + c);
        }
        answering.join(TimeUnit.SECONDS.toMillis(30));
    }

    @Test
    void handlesRequestsInParallelOnItsWorkers() throws Exception {
        int workers = 3;
        CountDownLatch allInside = new CountDownLatch(workers);
        Set<String> workerThreads = ConcurrentHashMap.newKeySet();
        int port = server(workers, request -> {
            workerThreads.add(Thread.currentThread().getName());
            allInside.countDown();
            try {
                // only true if every worker holds a request at the same time
                return utf8(Boolean.toString(allInside.await(5, TimeUnit.SECONDS)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return utf8("interrupted");
            }
        }).port();
        List<Future<byte[]>> replies = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            RequestClient client = client(port);
            replies.add(pool.submit(() -> client.request(utf8("x"), Duration.ofSeconds(10))));
        }

        for (Future<byte[]> reply : replies) {
            assertThat(reply.get(15, TimeUnit.SECONDS)).asString(UTF_8).isEqualTo("true");
        }
        assertThat(workerThreads).hasSize(workers).allMatch(name -> name.startsWith("jsalt-mworker-"));
    }

    @Test
    void answersEmptyWhenTheHandlerThrowsAndTheWorkerKeepsServing() {
        RequestClient client = client(server(1, request -> {
            if (new String(request, UTF_8).startsWith("boom")) {
                throw new IllegalStateException("handler failure");
            }
            return ECHO.handle(request);
        }).port());

        assertThat(client.request(utf8("boom"), ANSWER)).isEmpty();
        assertThat(client.request(utf8("after"), ANSWER)).asString(UTF_8).isEqualTo("re:after");
        assertThat(client.request(utf8("boom again"), ANSWER)).isEmpty();
        assertThat(client.request(utf8("still"), ANSWER)).asString(UTF_8).isEqualTo("re:still");
    }

    @Test
    void answersEmptyWhenTheHandlerReturnsNull() {
        RequestClient client = client(server(1, request -> null).port());

        assertThat(client.request(utf8("anything"), ANSWER)).isEmpty();
    }

    @Test
    void answersEmptyToAFrameThatIsNotMsgpackAndServesTheNextEnvelope() {
        RequestClient client = client(server(1, request -> {
            RequestEnvelope envelope = RequestEnvelope.decode(request);
            return SaltPack.pack(envelope.clearLoad().get("cmd"));
        }).port());
        byte[] good = RequestEnvelope.clear(Map.of("cmd", "ping")).encode();

        assertThat(client.request(new byte[] {(byte) 0xc1, 0, 0, 0}, ANSWER)).isEmpty();
        assertThat(client.request(new byte[0], ANSWER)).isEmpty();
        assertThat(SaltPack.unpack(client.request(good, ANSWER))).isEqualTo("ping");
    }

    @Test
    void timesOutWhenNothingAnswersAndWorksOnceAServerAppearsOnThatPort() throws IOException {
        int port = freePort();
        RequestClient client = client(port);
        Duration timeout = Duration.ofMillis(300);

        long start = System.nanoTime();
        assertThatThrownBy(() -> client.request(utf8("anyone?"), timeout))
                .isInstanceOf(RequestTimeoutException.class)
                .hasMessageContaining("tcp://127.0.0.1:" + port);
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(elapsedMs).isBetween(timeout.toMillis() - 5, timeout.toMillis() + 1500);

        open(bind(port, 1, ECHO));

        assertThat(client.request(utf8("now?"), ANSWER)).asString(UTF_8).isEqualTo("re:now?");
    }

    @Test
    void timesOutWhenTheHandlerIsTooSlowAndAnswersTheNextRequestFresh() {
        CountDownLatch release = new CountDownLatch(1);
        RequestClient client = client(server(2, request -> {
            if (new String(request, UTF_8).equals("slow")) {
                try {
                    release.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return ECHO.handle(request);
        }).port());

        assertThatThrownBy(() -> client.request(utf8("slow"), Duration.ofMillis(200))).isInstanceOf(RequestTimeoutException.class);
        // the late answer to "slow" must not be taken for the answer to the next request
        assertThat(client.request(utf8("fast"), ANSWER)).asString(UTF_8).isEqualTo("re:fast");
        release.countDown();
        assertThat(client.request(utf8("fast2"), ANSWER)).asString(UTF_8).isEqualTo("re:fast2");
    }

    @Test
    void keepsServingAfterAPeerSendsGarbageBytesInsteadOfZmtp() throws IOException {
        int port = server(1, ECHO).port();
        RequestClient client = client(port);
        assertThat(client.request(utf8("before"), ANSWER)).asString(UTF_8).isEqualTo("re:before");

        try (Socket garbage = new Socket(HOST, port); Socket silent = new Socket(HOST, port)) {
            garbage.setSoTimeout(5000);
            OutputStream out = garbage.getOutputStream();
            byte[] http = "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(UTF_8);
            byte[] noise = new byte[http.length + 4096];
            System.arraycopy(http, 0, noise, 0, http.length);
            for (int i = http.length; i < noise.length; i++) {
                noise[i] = (byte) (i * 31 + 7);
            }
            // in one write: the native server hangs up at the first byte, and a second write could meet the reset
            out.write(noise);
            out.flush();
            drainUntilClosed(garbage.getInputStream());

            // a peer that opened a connection and says nothing holds no worker either
            assertThat(client.request(utf8("after"), ANSWER)).asString(UTF_8).isEqualTo("re:after");
            assertThat(client(port).request(utf8("new client"), ANSWER)).asString(UTF_8).isEqualTo("re:new client");
            assertThat(silent.isClosed()).isFalse();
        }
    }

    /** Reads until the server hangs up on us (JeroMQ drops a peer whose greeting is not ZMTP). */
    private static void drainUntilClosed(InputStream in) throws IOException {
        byte[] buffer = new byte[1024];
        try {
            while (in.read(buffer) >= 0) {
                // discard whatever greeting the server sent
            }
        } catch (java.net.SocketException reset) {
            // a reset is a hang-up too
        }
    }

    @Test
    void dropsEnvelopesThatAreNotAReqEnvelopeAndServesTheNextOne() {
        int port = server(1, ECHO).port();
        rawContext = new ZContext(1);
        ZMQ.Socket dealer = rawContext.createSocket(SocketType.DEALER);
        Endpoints.prepareConnecting(dealer); // the same handshake retry the transport's own sockets get
        dealer.setReceiveTimeOut(10_000);
        dealer.connect("tcp://" + HOST + ":" + port);

        dealer.send(utf8("no delimiter"), 0);
        dealer.send(utf8("not empty"), ZMQ.SNDMORE);
        dealer.send(utf8("payload"), 0);
        dealer.send(new byte[0], ZMQ.SNDMORE);
        dealer.send(utf8("one"), ZMQ.SNDMORE);
        dealer.send(utf8("too many"), 0);
        dealer.send(new byte[0], ZMQ.SNDMORE);
        dealer.send(utf8("well formed"), 0);

        // frames from one peer arrive in order, so the first answer tells whether the others were dropped
        assertThat(dealer.recv(0)).isEmpty();
        assertThat(dealer.hasReceiveMore()).isTrue();
        assertThat(dealer.recv(0)).asString(UTF_8).isEqualTo("re:well formed");
        assertThat(dealer.hasReceiveMore()).isFalse();
        assertThat(client(port).request(utf8("req"), ANSWER)).asString(UTF_8).isEqualTo("re:req");
    }

    @Test
    void refusesToBindAPortAlreadyInUseAndNamesTheEndpoint() {
        int port = server(1, ECHO).port();

        assertThatThrownBy(() -> open(bind(port, 1, ECHO)))
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("tcp://127.0.0.1:" + port);
        assertThatThrownBy(() -> open(transport.bindPublisher(HOST, port)))
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("tcp://127.0.0.1:" + port);
    }

    @Test
    void refusesToBindAPortHeldByAnotherProgram() throws IOException {
        try (ServerSocket other = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            int port = other.getLocalPort();

            assertThatThrownBy(() -> open(bind(port, 1, ECHO)))
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("tcp://127.0.0.1:" + port);
        }
    }

    @Test
    void refusesAPortOutOfRange() {
        assertThatThrownBy(() -> transport.connectRequestClient(HOST, 65536)).isInstanceOf(TransportException.class);
        assertThatThrownBy(() -> transport.bindPublisher(HOST, -1)).isInstanceOf(TransportException.class);
    }

    @Test
    void refusesRequestsOnAClosedClient() {
        RequestClient client = client(server(1, ECHO).port());
        client.close();

        assertThatThrownBy(() -> client.request(utf8("x"), ANSWER))
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void freesItsPortSoonAfterClose() {
        RequestServer first = bind(0, 1, ECHO);
        int port = first.port();
        first.close();

        // JeroMQ closes the listener on its own I/O thread, so the port may still be bound for a moment
        RequestServer second = await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .ignoreException(TransportException.class)
                .until(() -> open(bind(port, 1, ECHO)), s -> true);

        assertThat(second.port()).isEqualTo(port);
        assertThat(client(port).request(utf8("again"), ANSWER)).asString(UTF_8).isEqualTo("re:again");
    }
}
