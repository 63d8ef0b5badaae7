package io.jsalt.master.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.jsalt.crypto.Rsa;
import io.jsalt.master.data.MinionDataCache;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.files.FileServer;
import io.jsalt.master.files.FileServerCommands;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.jobs.MemoryJobCache;
import io.jsalt.master.keys.KeyAdmin;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.request.AesCommand;
import io.jsalt.master.request.AuthHandler;
import io.jsalt.master.request.ClearCommand;
import io.jsalt.master.request.ClientKey;
import io.jsalt.master.request.MinionEventHandler;
import io.jsalt.master.request.MinionTrust;
import io.jsalt.master.request.PillarHandler;
import io.jsalt.master.request.PingHandler;
import io.jsalt.master.request.RequestDispatcher;
import io.jsalt.master.request.ReturnHandler;
import io.jsalt.master.request.WheelHandler;
import io.jsalt.master.session.SessionKey;
import io.jsalt.master.session.SignIns;
import io.jsalt.master.support.TestKeys;
import io.jsalt.master.targeting.TargetResolver;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.message.RequestEnvelope;
import io.jsalt.transport.message.SessionCipher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Coverage-guided fuzzing of the master's request handling: the real dispatcher with the real handlers
 * (sign-in, returns, events, pillar, file server, wheel, ping) over a key store with two accepted minions.
 * Whatever a peer sends, clear or encrypted with the session key, {@link RequestDispatcher#handle} answers
 * with a frame and never throws: a malformed request costs an error reply, never the MWorker. Inputs:
 * {@code src/test/resources/io/jsalt/master/fuzz/RequestDispatcherFuzzTestInputs/}.
 */
class RequestDispatcherFuzzTest {
    private static final List<String> CLEAR = List.of("_auth", "ping", "wheel", "publish", "runner", "_return", "x");
    private static final List<String> AES = List.of("_return", "_minion_event", "_pillar", "_file_list", "_file_hash",
            "_serve_file", "_auth", "x");
    private static final KeyPair WEB1 = TestKeys.minion(1);
    private static final byte[] WEB1_TOKEN = Rsa.x931PrivateEncrypt(WEB1.getPrivate(), "salt".getBytes(StandardCharsets.US_ASCII));
    private static final SessionKey SESSION = new SessionKey();
    private static final RequestDispatcher DISPATCHER = dispatcher();

    private static RequestDispatcher dispatcher() {
        try {
            Path root = Files.createTempDirectory("jsalt-fuzz-master");
            root.toFile().deleteOnExit();
            KeyStore keys = new KeyStore(root.resolve("pki"));
            keys.store(KeyState.ACCEPTED, "web1", TestKeys.pem(WEB1));
            keys.store(KeyState.ACCEPTED, "web2", TestKeys.pem(TestKeys.minion(2)));
            Path files = Files.createDirectories(root.resolve("srv/base"));
            Files.writeString(files.resolve("top.sls"), "base: {}");
            EventBus events = new EventBus();
            SignIns signIns = new SignIns();
            signIns.signedIn("web1");
            MinionDataCache data = new MinionDataCache();
            ClientKey clientKey = ClientKey.create(root.resolve("cache"), "root");
            Map<String, ClearCommand> clear = Map.of(
                    "_auth", new AuthHandler(keys, TestKeys.master(), SESSION, events,
                            () -> new AuthHandler.Policy(false, false, 0, 5, 60), 4505, signIns),
                    "ping", new PingHandler(),
                    "wheel", new WheelHandler(clientKey, new io.jsalt.master.wheel.WheelFunctions(List.of(
                            new io.jsalt.master.wheel.KeyWheel(new KeyAdmin(keys, events, () -> { }), keys))),
                            new Jids(), events, new io.jsalt.master.runner.RunnerCalls()));
            FileServerCommands fileServer = new FileServerCommands(new FileServer(() -> Map.of("base", List.of(files)), () -> 4096));
            Map<String, AesCommand> aes = Map.of(
                    "_return", new ReturnHandler(keys, new MemoryJobCache(), events, new Jids(),
                            new MinionTrust(keys, () -> false), new TargetResolver(keys, data, Map.of())),
                    "_minion_event", new MinionEventHandler(keys, events, null, signIns),
                    "_pillar", new PillarHandler(keys, TestKeys.master().getPrivate(), data::putGrains),
                    "_file_list", fileServer::fileList,
                    "_file_hash", fileServer::fileHash,
                    "_serve_file", fileServer::serveFile);
            return new RequestDispatcher(SESSION, clear, aes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Any bytes as the request frame. */
    @FuzzTest
    void rawFrames(byte[] frame) {
        assertThat(DISPATCHER.handle(frame)).isNotNull();
    }

    /**
     * A well-formed envelope around a fuzzed load: clear, or encrypted with the session key as a minion does,
     * with a command from the allowlists (or not) and, for web1, a valid token, so the handlers' own checks run.
     */
    @FuzzTest
    void decodedEnvelopes(FuzzedDataProvider data) {
        boolean encrypted = data.consumeBoolean();
        String cmd = data.pickValue(encrypted ? AES : CLEAR);
        boolean proven = data.consumeBoolean();
        Map<String, Object> load;
        try {
            load = new LinkedHashMap<>(Wire.asMap(SaltPack.unpack(data.consumeRemainingAsBytes())));
        } catch (WireException e) {
            load = new LinkedHashMap<>();
        }
        load.put("cmd", cmd);
        if (proven) {
            load.putIfAbsent("id", "web1");
            load.put("tok", WEB1_TOKEN);
        }
        byte[] frame;
        if (encrypted) {
            SessionCipher cipher = new SessionCipher(SESSION.crypticle());
            frame = RequestEnvelope.aes(cipher.encryptRequest(load, SessionCipher.newNonce())).encode();
        } else {
            frame = RequestEnvelope.clear(load).encode();
        }
        assertThat(DISPATCHER.handle(frame)).isNotNull();
    }
}
