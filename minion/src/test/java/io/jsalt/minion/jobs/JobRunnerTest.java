package io.jsalt.minion.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.minion.auth.Session;
import io.jsalt.minion.channel.MasterChannel;
import io.jsalt.minion.testing.CapturedLogs;
import io.jsalt.minion.testing.SaltVectors;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.Transport;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.message.Publication;
import io.jsalt.transport.message.PublishLoad;
import io.jsalt.transport.message.RequestEnvelope;
import io.jsalt.transport.message.ReturnLoad;
import io.jsalt.transport.message.SessionCipher;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Publications in, signed returns out: the runner talks to a fake master's request port over a real
 * socket, and the fake master checks each return as jsalt's master does (session key, nonce, minion sig).
 */
class JobRunnerTest {
    private static final KeyPair MASTER = SaltVectors.masterKeyPair();
    private static final KeyPair MINION = SaltVectors.minionKeyPair();
    private static final String ID = "web-1";
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static KeyPair impostor;

    @TempDir
    Path cachedir;

    private Transport transport;
    private RequestServer server;
    private RequestClient client;
    private JobRunner runner;
    private final AtomicReference<Session> session = new AtomicReference<>();
    /** Decrypted return loads the fake master received, request nonce removed, in arrival order. */
    private final List<Map<String, Object>> returns = new CopyOnWriteArrayList<>();
    private final List<byte[]> mismatched = new CopyOnWriteArrayList<>();
    private final AtomicInteger requestCount = new AtomicInteger();
    /** The fake master's answer to the n-th request (1-based): the raw reply frame. */
    private volatile IntFunction<Object> answer = n -> true;

    @BeforeAll
    static void makeImpostorKey() {
        impostor = RsaKeys.generate();
    }

    @BeforeEach
    void startFakeMaster() {
        transport = Transport.create();
        server = transport.bindRequestServer("127.0.0.1", 0, 1, frame -> {
            int n = requestCount.incrementAndGet();
            SessionCipher cipher = new SessionCipher(session.get().crypticle());
            Map<String, Object> load = new LinkedHashMap<>(cipher.decryptRequest(RequestEnvelope.decode(frame).aesLoad()));
            String nonce = (String) load.remove("nonce");
            returns.add(load);
            Object reply = answer.apply(n);
            if (reply instanceof BadLoad) {
                return SaltPack.pack("bad load"); // what Salt's master answers a load it cannot decrypt
            }
            return cipher.encryptReply(reply, nonce);
        });
        client = transport.connectRequestClient("127.0.0.1", server.port());
    }

    @AfterEach
    void stop() {
        if (runner != null) {
            runner.close();
        }
        client.close();
        server.close();
        transport.close();
    }

    /** Marks an answer the fake master gives as Salt's "bad load" string instead of an encrypted reply. */
    private record BadLoad() {}

    private JobRunner start(String minionId, Crypticle sessionKey) {
        return start(minionId, sessionKey, true);
    }

    /** A state function as far as outputters go: its returns ask for the highstate outputter. */
    @io.jsalt.modules.api.SaltModule(name = "fakestate", doc = "A function that names an outputter.")
    public static final class FakeStateModule implements io.jsalt.modules.api.ExecutionModule {
        @io.jsalt.modules.api.SaltFunction(outputter = "highstate", doc = "Returns an empty state run.")
        public Map<String, Object> apply() {
            return Map.of();
        }
    }

    private JobRunner start(String minionId, Crypticle sessionKey, boolean signReturns) {
        session.set(new Session(sessionKey, MASTER.getPublic(), 0));
        ModuleRegistry registry = ModuleRegistry.builder(SimpleModuleContext.builder().minionId(minionId).cachedir(cachedir).build())
                .addDiscovered(ModuleRegistry.class.getClassLoader()).addModule(new FakeStateModule()).build();
        MasterChannel channel = new MasterChannel(client, session::get, failed -> null, Duration.ofSeconds(2));
        // one job at a time, so returns arrive in publication order; retry timers of 0 s so a retry is immediate
        runner = new JobRunner(new JobRunner.Settings(minionId, 1, 0, 0, signReturns), registry, channel, MINION.getPrivate(),
                session::get, (s, frame) -> mismatched.add(frame));
        return runner;
    }

    private JobRunner start() {
        return start(ID, new Crypticle(Crypticle.generateKeyString()));
    }

    private byte[] publication(long serial, Object tgt, String tgtType, String fun, List<Object> arg, String jid) {
        return publication(session.get().crypticle(), MASTER, serial, tgt, tgtType, fun, arg, jid);
    }

    private static byte[] publication(Crypticle key, KeyPair signer, long serial, Object tgt, String tgtType, String fun,
            List<Object> arg, String jid) {
        Map<String, Object> load = new PublishLoad(fun, arg, tgt, jid, "", tgtType, "root").toLoad();
        load.put("serial", serial);
        return Publication.encode(key, signer.getPrivate(), load);
    }

    private byte[] ping(long serial, String jid) {
        return publication(serial, "*", "glob", "test.ping", List.of(), jid);
    }

    private List<Object> returnedJids() {
        List<Object> jids = new ArrayList<>();
        returns.forEach(r -> jids.add(r.get("jid")));
        return jids;
    }

    private void awaitReturnOf(String jid) {
        await().atMost(WAIT).until(() -> returnedJids().contains(jid));
    }

    // --- running what targets this minion ---------------------------------------------------------------

    @Test
    void runsAMatchingJobAndReturnsItSignedWithTheMinionKey() {
        start().onPublication(ping(1, "20260101000000000001"));

        awaitReturnOf("20260101000000000001");
        Map<String, Object> ret = returns.get(0);
        assertThat(ret).containsEntry("cmd", "_return").containsEntry("id", ID).containsEntry("fun", "test.ping")
                .containsEntry("return", true).containsEntry("success", true).containsEntry("fun_args", List.of());
        assertThat(((Number) ret.get("retcode")).intValue()).isZero();
        assertThat(ReturnLoad.signatureValid(ret, MINION.getPublic())).isTrue();
        assertThat(ReturnLoad.signatureValid(ret, impostor.getPublic())).isFalse();
    }

    @Test
    void aReturnNamesTheOutputterItsFunctionAsksForLastAndUnderTheSignature() {
        JobRunner runner = start();
        runner.onPublication(publication(1, "*", "glob", "fakestate.apply", List.of(), "20260101000000000007"));
        runner.onPublication(ping(2, "20260101000000000008"));

        awaitReturnOf("20260101000000000007");
        Map<String, Object> ret = returns.get(0);
        assertThat(ret).containsEntry("out", "highstate");
        assertThat(new ArrayList<>(ret.keySet()).subList(0, 9)).containsExactly("cmd", "id", "success", "return", "retcode", "jid",
                "fun", "fun_args", "out");
        assertThat(ReturnLoad.signatureValid(ret, MINION.getPublic())).isTrue();
        awaitReturnOf("20260101000000000008");
        assertThat(returns.get(1)).doesNotContainKey("out");
    }

    @Test
    void aJobSentAgainWithANewSerialRunsOnceAsSaltsJidQueueHasIt() {
        // the master sends a job again to a minion that signs in while it is in flight: one run, one return
        start().onPublication(publication(1, "*", "glob", "test.sleep", List.of(1L), "20260101000000000011"));
        runner.onPublication(publication(2, List.of(ID), "list", "test.sleep", List.of(1L), "20260101000000000011"));
        runner.onPublication(ping(3, "20260101000000000012"));

        awaitReturnOf("20260101000000000011");
        awaitReturnOf("20260101000000000012");
        runner.onPublication(publication(4, List.of(ID), "list", "test.sleep", List.of(1L), "20260101000000000011"));
        runner.onPublication(ping(5, "20260101000000000013"));
        awaitReturnOf("20260101000000000013");

        assertThat(returnedJids()).containsExactly("20260101000000000011", "20260101000000000012", "20260101000000000013");
    }

    @Test
    void withMinionSignMessagesOffReturnsCarryNoSignature() {
        start(ID, new Crypticle(Crypticle.generateKeyString()), false).onPublication(ping(1, "20260101000000000005"));

        awaitReturnOf("20260101000000000005");
        assertThat(returns.get(0)).doesNotContainKey("sig").containsEntry("return", true);
    }

    @Test
    void passesArgumentsAndKeywordArgumentsToTheFunction() {
        Map<String, Object> kwargs = new LinkedHashMap<>();
        kwargs.put("__kwarg__", true);
        kwargs.put("two", 2L);
        start().onPublication(publication(1, "web-*", "glob", "test.arg", List.of(1L, kwargs), "20260101000000000002"));

        awaitReturnOf("20260101000000000002");
        Map<String, Object> ret = returns.get(0);
        assertThat(ret.get("fun_args")).isEqualTo(List.of(1L, kwargs));
        assertThat(ret.get("return")).isEqualTo(Map.of("args", List.of(1L), "kwargs", Map.of("two", 2L)));
    }

    @Test
    void runsTheTestArgPublicationSaltSentInTheCapture() {
        Map<String, Object> described = SaltVectors.json("frames/run1-auto-accept/019-master-to-minion-publish-test.arg.json");
        @SuppressWarnings("unchecked")
        String key = (String) ((Map<String, Object>) described.get("load_crypticle")).get("session_key");
        start("vector-minion", new Crypticle(key));

        runner.onPublication(SaltVectors.bytes("frames/run1-auto-accept/019-master-to-minion-publish-test.arg.bin"));

        awaitReturnOf("20261122064522705359");
        Map<String, Object> ret = returns.get(0);
        Map<String, Object> kwargs = new LinkedHashMap<>();
        kwargs.put("__kwarg__", true);
        kwargs.put("two", 2L);
        assertThat(ret).containsEntry("id", "vector-minion").containsEntry("fun", "test.arg").containsEntry("success", true);
        assertThat(ret.get("fun_args")).as("fun_args as salt-minion sent them in frame 020").isEqualTo(List.of(1L, kwargs));
        assertThat(ret.get("return")).isEqualTo(Map.of("args", List.of(1L), "kwargs", Map.of("two", 2L)));
        assertThat(ReturnLoad.signatureValid(ret, MINION.getPublic())).isTrue();
    }

    @Test
    void runsAJobTargetedByList() {
        start().onPublication(publication(1, List.of("db-1", ID), "list", "test.ping", List.of(), "20260101000000000003"));

        awaitReturnOf("20260101000000000003");
    }

    @Test
    void returnsAFunctionItLacksAsSaltDoes() {
        start().onPublication(publication(1, "*", "glob", "nosuch.fun", List.of(), "20260101000000000004"));

        awaitReturnOf("20260101000000000004");
        Map<String, Object> ret = returns.get(0);
        assertThat(ret).containsEntry("return", "'nosuch.fun' is not available.").containsEntry("success", false);
        assertThat(((Number) ret.get("retcode")).intValue()).isEqualTo(254);
    }

    // --- what it must not run -------------------------------------------------------------------------

    @Test
    void sendsNothingForAJobTargetingAnotherMinion() {
        start();
        runner.onPublication(publication(1, "db-*", "glob", "test.ping", List.of(), "20260101000000000010"));
        runner.onPublication(publication(2, List.of("db-1"), "list", "test.ping", List.of(), "20260101000000000011"));
        runner.onPublication(ping(3, "20260101000000000012"));

        awaitReturnOf("20260101000000000012");
        assertThat(returnedJids()).containsExactly("20260101000000000012");
    }

    @Test
    void ignoresAReplayedPublication() {
        start();
        byte[] first = ping(5, "20260101000000000020");
        runner.onPublication(first);
        awaitReturnOf("20260101000000000020");

        runner.onPublication(first);
        runner.onPublication(ping(5, "20260101000000000021"));
        runner.onPublication(ping(4, "20260101000000000022"));
        runner.onPublication(ping(6, "20260101000000000023"));

        awaitReturnOf("20260101000000000023");
        assertThat(returnedJids()).containsExactly("20260101000000000020", "20260101000000000023");
        assertThat(CapturedLogs.matching("WARN", "replayed")).isNotEmpty();
    }

    @Test
    void ignoresAPublicationWithoutSerial() {
        start();
        Map<String, Object> load = new PublishLoad("test.ping", List.of(), "*", "20260101000000000030", "", "glob", "root").toLoad();
        runner.onPublication(Publication.encode(session.get().crypticle(), MASTER.getPrivate(), load));
        runner.onPublication(ping(1, "20260101000000000031"));

        awaitReturnOf("20260101000000000031");
        assertThat(returnedJids()).containsExactly("20260101000000000031");
    }

    @Test
    void handsAFrameUnderAnotherSessionKeyToOnSessionKeyMismatch() {
        start();
        byte[] rotated = publication(new Crypticle(Crypticle.generateKeyString()), MASTER, 1, "*", "glob", "test.ping",
                List.of(), "20260101000000000040");

        runner.onPublication(rotated);
        runner.onPublication(ping(1, "20260101000000000041"));

        awaitReturnOf("20260101000000000041");
        assertThat(mismatched).containsExactly(rotated);
        assertThat(returnedJids()).containsExactly("20260101000000000041");
    }

    @Test
    void ignoresAPublicationSignedByAnotherKeyWithoutAskingToSignInAgain() {
        start();
        runner.onPublication(publication(session.get().crypticle(), impostor, 1, "*", "glob", "test.ping", List.of(),
                "20260101000000000050"));
        runner.onPublication(ping(2, "20260101000000000051"));

        awaitReturnOf("20260101000000000051");
        assertThat(returnedJids()).containsExactly("20260101000000000051");
        assertThat(mismatched).isEmpty();
    }

    @Test
    void ignoresAnUnsignedPublication() {
        start();
        Map<String, Object> load = new PublishLoad("test.ping", List.of(), "*", "20260101000000000055", "", "glob", "root").toLoad();
        load.put("serial", 1L);
        runner.onPublication(Publication.encode(session.get().crypticle(), null, load));
        runner.onPublication(ping(2, "20260101000000000056"));

        awaitReturnOf("20260101000000000056");
        assertThat(returnedJids()).containsExactly("20260101000000000056");
    }

    @Test
    void ignoresGarbageFrames() {
        start();
        runner.onPublication(new byte[] {(byte) 0x93, 1, 2});
        runner.onPublication(new byte[0]);
        runner.onPublication(ping(1, "20260101000000000060"));

        awaitReturnOf("20260101000000000060");
        assertThat(returnedJids()).containsExactly("20260101000000000060");
    }

    @Test
    void ignoresATargetTypeItCannotMatch() {
        start();
        runner.onPublication(publication(1, "os:Debian", "compound-of-sorts", "test.ping", List.of(), "20260101000000000065"));
        runner.onPublication(ping(2, "20260101000000000066"));

        awaitReturnOf("20260101000000000066");
        assertThat(returnedJids()).containsExactly("20260101000000000066");
    }

    @Test
    void ignoresPublicationsWhileNotSignedIn() {
        start();
        Session signedIn = session.get();
        byte[] whileAway = ping(1, "20260101000000000070");
        session.set(null);

        runner.onPublication(whileAway);
        session.set(signedIn);
        runner.onPublication(ping(2, "20260101000000000071"));

        awaitReturnOf("20260101000000000071");
        assertThat(returnedJids()).containsExactly("20260101000000000071");
        assertThat(mismatched).isEmpty();
    }

    // --- delivering the return ------------------------------------------------------------------------

    @Test
    void aReturnTheMasterRefusesIsLoggedAndNotSentAgain() {
        answer = n -> false;
        start().onPublication(ping(1, "20260101000000000080"));

        await().atMost(WAIT).until(() -> !CapturedLogs.matching("WARN", "refused the return of job 20260101000000000080").isEmpty());
        await().during(Duration.ofMillis(500)).atMost(WAIT).until(() -> requestCount.get() == 1);
    }

    @Test
    void aReturnTheMasterCouldNotReadIsSentAgain() {
        answer = n -> n == 1 ? new BadLoad() : true;
        start().onPublication(ping(1, "20260101000000000090"));

        await().atMost(WAIT).until(() -> requestCount.get() == 2);
        assertThat(returnedJids()).containsExactly("20260101000000000090", "20260101000000000090");
        assertThat(returns.get(1).get("sig")).isEqualTo(returns.get(0).get("sig"));
        await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> requestCount.get() == 2);
    }

    @Test
    void givesUpOnAReturnAfterThreeTriesAndSaysSo() {
        answer = n -> new BadLoad();
        start().onPublication(ping(1, "20260101000000000095"));

        await().atMost(WAIT).until(() ->
                !CapturedLogs.matching("ERROR", "return of job 20260101000000000095 not delivered after 3 tries").isEmpty());
        assertThat(requestCount.get()).isEqualTo(3);
    }

    @Test
    void closeStopsTheJobThreads() {
        start().onPublication(ping(1, "20260101000000000099"));
        awaitReturnOf("20260101000000000099");

        runner.close();

        await().atMost(WAIT).until(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().equals("jsalt-job-" + ID) && t.isAlive()));
    }
}
