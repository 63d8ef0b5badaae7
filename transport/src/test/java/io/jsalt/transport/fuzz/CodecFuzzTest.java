package io.jsalt.transport.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.event.EventFrame;
import io.jsalt.transport.message.AuthReply;
import io.jsalt.transport.message.AuthRequest;
import io.jsalt.transport.message.MinionEvent;
import io.jsalt.transport.message.Publication;
import io.jsalt.transport.message.PublishLoad;
import io.jsalt.transport.message.PublishRequest;
import io.jsalt.transport.message.RequestEnvelope;
import io.jsalt.transport.message.ReturnLoad;
import io.jsalt.transport.message.SignedClear;
import io.jsalt.transport.message.WirePath;
import java.security.KeyPair;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Coverage-guided fuzzing of every decoder a peer's bytes reach (docs/security.md, "Fuzzing"). Each target
 * holds the codec's contract: whatever the bytes, it answers or throws its own layer's exception
 * ({@link WireException}, {@link CryptoException}), never anything else. In the normal build each runs once
 * per input kept under {@code src/test/resources/io/jsalt/transport/fuzz/CodecFuzzTestInputs/<method>/}.
 */
class CodecFuzzTest {
    private static final KeyPair MASTER = RsaKeys.generate();
    private static final Crypticle SESSION = new Crypticle(Crypticle.generateKeyString());

    /** msgpack as Salt writes it: any value, or a WireException; what decodes packs, and reads back to the same bytes. */
    @FuzzTest
    void saltDecoder(byte[] bytes) {
        Object value;
        try {
            value = SaltPack.unpack(bytes);
        } catch (WireException e) {
            return;
        }
        byte[] packed = SaltPack.pack(value);
        assertThat(SaltPack.pack(SaltPack.unpack(packed))).as("packing what was read is stable").isEqualTo(packed);
    }

    /** The request port's first decoding step, for every message family a request can carry. */
    @FuzzTest
    void requestEnvelope(byte[] bytes) {
        RequestEnvelope envelope;
        try {
            envelope = RequestEnvelope.decode(bytes);
        } catch (WireException e) {
            return;
        }
        if (RequestEnvelope.CLEAR.equals(envelope.enc())) {
            Map<String, Object> load = envelope.clearLoad();
            wireOnly(AuthRequest::fromLoad, load);
            wireOnly(PublishRequest::fromLoad, load);
        } else {
            assertThat(envelope.aesLoad()).isNotNull();
        }
    }

    /** The loads a minion sends inside an aes request, decoded from any msgpack map. */
    @FuzzTest
    void minionLoads(byte[] bytes) {
        Map<String, Object> load;
        try {
            load = Wire.asMap(SaltPack.unpack(bytes));
        } catch (WireException e) {
            return;
        }
        wireOnly(ReturnLoad::fromLoad, load);
        wireOnly(MinionEvent::fromLoad, load);
        wireOnly(AuthReply::fromLoad, load);
        wireOnly(PublishLoad::fromLoad, load);
    }

    /** An event frame from the local event socket: {@code tag\n\nmsgpack}. */
    @FuzzTest
    void eventFrame(byte[] bytes) {
        try {
            EventFrame e = EventFrame.decode(bytes);
            assertThat(e.tag()).isNotNull();
        } catch (WireException e) {
            // refused
        }
    }

    /** A publication frame as a subscriber receives it, checked against a master key and a session key. */
    @FuzzTest
    void publication(byte[] bytes) {
        try {
            Publication.decode(bytes, SESSION, MASTER.getPublic(), true);
        } catch (WireException | CryptoException e) {
            // refused
        }
        try {
            SignedClear.open(bytes, MASTER.getPublic());
        } catch (WireException | CryptoException e) {
            // refused
        }
    }

    /** File paths a peer names: checked, or refused with an UnsafePathException, never escaping. */
    @FuzzTest
    void wirePath(FuzzedDataProvider data) {
        String path = data.consumeRemainingAsString();
        try {
            String checked = WirePath.check(path);
            assertThat(WirePath.segments(checked)).noneMatch(s -> s.isEmpty() || s.equals(".") || s.equals(".."));
            assertThat(checked).doesNotStartWith("/").doesNotContain("\0").doesNotContain("\\");
        } catch (WireException e) {
            // refused
        }
    }

    private static void wireOnly(Consumer<Map<String, Object>> decoder, Map<String, Object> load) {
        try {
            decoder.accept(load);
        } catch (WireException e) {
            // refused: the layer's own exception
        }
    }

    private static <T> void wireOnly(java.util.function.Function<Map<String, Object>, T> decoder, Map<String, Object> load) {
        try {
            decoder.apply(load);
        } catch (WireException e) {
            // refused: the layer's own exception
        }
    }
}
