package io.jsalt.master.request;

import io.jsalt.crypto.CryptoException;
import io.jsalt.master.session.SessionKey;
import io.jsalt.transport.RequestHandler;
import io.jsalt.transport.codec.Printable;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.message.RequestEnvelope;
import io.jsalt.transport.message.SessionCipher;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every MWorker runs: decode the request envelope, then dispatch by {@code cmd} through two explicit
 * allowlists, one per encoding. Nothing named on the wire is ever looked up by reflection (Salt's
 * CVE-2020-11651). A malformed or hostile request costs one log line and an error reply.
 */
public final class RequestDispatcher implements RequestHandler {
    private static final Logger log = LoggerFactory.getLogger(RequestDispatcher.class);
    /** What Salt's master answers when an aes load does not decrypt; a minion then signs in again. */
    static final byte[] BAD_LOAD = SaltPack.pack("bad load");
    /** Compiled once: every aes request is checked ({@code String.matches} compiles its pattern on each call). */
    private static final java.util.regex.Pattern NONCE = java.util.regex.Pattern.compile("[0-9a-f]{32}");

    private final SessionKey sessionKey;
    private final Map<String, ClearCommand> clearCommands;
    private final Map<String, AesCommand> aesCommands;
    private final RequestFreshness freshness;

    /** A dispatcher that refuses replayed stamped loads under the default {@code request_max_age}. */
    public RequestDispatcher(SessionKey sessionKey, Map<String, ClearCommand> clearCommands, Map<String, AesCommand> aesCommands) {
        this(sessionKey, clearCommands, aesCommands, new RequestFreshness(() -> java.time.Duration.ofSeconds(
                io.jsalt.config.MasterConfig.AbuseLimits.DEFAULTS.requestMaxAgeSeconds())));
    }

    public RequestDispatcher(SessionKey sessionKey, Map<String, ClearCommand> clearCommands, Map<String, AesCommand> aesCommands,
            RequestFreshness freshness) {
        this.freshness = freshness;
        this.sessionKey = sessionKey;
        this.clearCommands = Map.copyOf(clearCommands);
        this.aesCommands = Map.copyOf(aesCommands);
    }

    /** The answer, waited for when it is a {@link DeferredReply} (tests and callers without a request server). */
    @Override
    public byte[] handle(byte[] frame) {
        CompletableFuture<byte[]> reply = new CompletableFuture<>();
        handle(frame, reply::complete);
        return reply.join();
    }

    @Override
    public void handle(byte[] frame, Consumer<byte[]> reply) {
        RequestEnvelope envelope;
        try {
            envelope = RequestEnvelope.decode(frame);
        } catch (WireException e) {
            log.warn("malformed request ({} bytes): {}", frame.length, Printable.reason(e));
            reply.accept(BAD_LOAD);
            return;
        }
        byte[] now;
        try {
            now = RequestEnvelope.CLEAR.equals(envelope.enc()) ? handleClear(envelope.clearLoad()) : handleAes(envelope.aesLoad(), reply);
        } catch (WireException | CryptoException | IllegalArgumentException | io.jsalt.transport.target.InvalidTargetException e) {
            log.warn("rejected request: {}", Printable.reason(e));
            now = SaltPack.pack(error(e.getMessage()));
        }
        if (now != null) {
            reply.accept(now);
        }
    }

    private byte[] handleClear(Map<String, Object> load) {
        Object cmd = load.get("cmd");
        ClearCommand command = cmd instanceof String s ? clearCommands.get(s) : null;
        if (command == null) {
            log.warn("refused clear command {}", Printable.quoted(cmd));
            return SaltPack.pack(error("unknown command"));
        }
        return command.handle(load);
    }

    /** The reply, or null when a {@link DeferredReply} will give it to {@code later}. */
    private byte[] handleAes(byte[] blob, Consumer<byte[]> later) {
        SessionCipher cipher = new SessionCipher(sessionKey.crypticle());
        Map<String, Object> load;
        try {
            load = cipher.decryptRequest(blob);
        } catch (CryptoException e) {
            log.debug("aes request did not decrypt with the current session key: {}", e.getMessage());
            return BAD_LOAD;
        }
        Object rawNonce = load.remove("nonce");
        if (rawNonce != null && !(rawNonce instanceof String n && NONCE.matcher(n).matches())) {
            log.warn("refused aes request with a malformed nonce");
            return BAD_LOAD;
        }
        String nonce = (String) rawNonce;
        Object cmd = load.get("cmd");
        AesCommand command = cmd instanceof String s ? aesCommands.get(s) : null;
        if (command == null) {
            log.warn("refused aes command {}", Printable.quoted(cmd));
            return cipher.encryptReply(false, nonce);
        }
        RequestFreshness.Refusal refusal = freshness.check(load, nonce);
        if (refusal != null) {
            log.warn("refused aes command {} from {}: {} request stamp", Printable.quoted(cmd), Printable.quoted(load.get("id")),
                    refusal.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '));
            return cipher.encryptReply(false, nonce);
        }
        Object result = command.handle(load, nonce);
        if (result instanceof PrivateReply p) {
            return SaltPack.pack(p.reply());
        }
        if (result instanceof DeferredReply d) {
            defer(cipher.encryptReply(d.answer(), nonce), d, later);
            return null;
        }
        return cipher.encryptReply(result, nonce);
    }

    /** Sends {@code encrypted} once {@code d}'s work succeeds, or the error reply a handler's failure gets (empty). */
    private static void defer(byte[] encrypted, DeferredReply d, Consumer<byte[]> reply) {
        d.start().accept(new DeferredReply.Outcome() {
            @Override
            public void succeeded() {
                reply.accept(encrypted);
            }

            @Override
            public void failed(RuntimeException e) {
                // what a handler that throws gets from the request server (WorkerPool): a warning and an empty reply
                log.warn("request handler failed: {}", e.toString());
                reply.accept(new byte[0]);
            }
        });
    }

    /** The clear error reply a client sees ({@code {"enc": "clear", "load": {"error": ...}}}). */
    public static Map<String, Object> error(String message) {
        Map<String, Object> err = new LinkedHashMap<>();
        err.put("enc", "clear");
        err.put("load", Map.of("error", message == null ? "error" : message));
        return err;
    }
}
