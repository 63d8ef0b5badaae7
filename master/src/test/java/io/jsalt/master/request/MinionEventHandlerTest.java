package io.jsalt.master.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.jsalt.crypto.Rsa;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.session.SignIns;
import io.jsalt.master.support.RecordedEvents;
import io.jsalt.master.support.SaltVectors;
import io.jsalt.master.support.TestKeys;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.event.EventFrame;
import io.jsalt.transport.message.MinionEvent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MinionEventHandlerTest {
    @TempDir
    Path pki;
    KeyStore keys;
    final RecordedEvents events = new RecordedEvents();
    final KeyPair web1 = TestKeys.minion(1);
    final KeyPair web2 = TestKeys.minion(2);
    MinionEventHandler handler;
    final SignIns signIns = new SignIns();

    @BeforeEach
    void setUp() {
        keys = new KeyStore(pki);
        keys.store(KeyState.ACCEPTED, "web1", TestKeys.pem(web1));
        keys.store(KeyState.ACCEPTED, "web2", TestKeys.pem(web2));
        EventBus bus = new EventBus();
        bus.addListener(events);
        signIns.signedIn("web1");
        handler = new MinionEventHandler(keys, bus, null, signIns);
    }

    @Test
    void aStartEventFiresOncePerSignIn() {
        Map<String, Object> start = event("web1", tok(web1), "minion_start", "Minion web1 started");
        assertThat(handler.handle(start, null)).isEqualTo(true);
        assertThat(handler.handle(event("web1", tok(web1), "minion_start", "Minion web1 started"), null)).isEqualTo(true);
        assertThat(events.tags()).containsExactly("minion_start");

        signIns.signedIn("web1");
        handler.handle(event("web1", tok(web1), "minion_start", "Minion web1 started"), null);
        assertThat(events.tags()).containsExactly("minion_start", "minion_start");
    }

    @Test
    void aStartEventWithoutASignInIsNotFired() {
        handler.handle(event("web2", tok(web2), "salt/minion/web2/start", "Minion web2 started"), null);
        handler.handle(event("web2", tok(web2), "minion_start", "Minion web2 started"), null);
        handler.handle(event("web2", tok(web2), "myapp/other", Map.of()), null);
        assertThat(events.tags()).containsExactly("myapp/other");
    }

    @ParameterizedTest
    @ValueSource(strings = {"myapp/a\nforged line", "myapp/a\n\nb", "myapp/\u001b[31m", "myapp/\u007f"})
    void refusesTagsWithControlCharacters(String tag) {
        handler.handle(event("web1", tok(web1), tag, Map.of()), null);
        assertThat(events.all()).isEmpty();
    }

    @Test
    void firesAnEventProvenByTheSendersTokenUnderTheSendersId() {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("id", "web2");
        data.put("answer", 42);

        assertThat(handler.handle(event("web1", tok(web1), "myapp/deploy/done", data), null)).isEqualTo(true);

        assertThat(events.all()).singleElement().satisfies(e -> {
            assertThat(e.tag()).isEqualTo("myapp/deploy/done");
            assertThat(e.data()).containsEntry("id", "web1").containsEntry("answer", 42L).containsKey("_stamp");
        });
    }

    @Test
    void wrapsDataThatIsNotAMap() {
        assertThat(handler.handle(event("web1", tok(web1), "minion_start", "Minion web1 started"), null)).isEqualTo(true);

        assertThat(events.all()).singleElement().satisfies(e ->
                assertThat(e.data()).containsEntry("data", "Minion web1 started").containsEntry("id", "web1"));
    }

    @Test
    void refusesATokenMadeWithAnotherMinionsKey() {
        assertThat(handler.handle(event("web1", tok(web2), "myapp/x", Map.of()), null)).isEqualTo(false);
        assertThat(events.all()).isEmpty();
    }

    @Test
    void refusesATokenOverAnotherMessage() {
        byte[] tok = Rsa.x931PrivateEncrypt(web1.getPrivate(), "salz".getBytes(StandardCharsets.US_ASCII));
        assertThat(handler.handle(event("web1", tok, "myapp/x", Map.of()), null)).isEqualTo(false);
        assertThat(events.all()).isEmpty();
    }

    @Test
    void refusesAGarbageToken() {
        assertThat(handler.handle(event("web1", new byte[] {1, 2, 3}, "myapp/x", Map.of()), null)).isEqualTo(false);
        assertThat(handler.handle(event("web1", new byte[256], "myapp/x", Map.of()), null)).isEqualTo(false);
        assertThat(events.all()).isEmpty();
    }

    @Test
    void refusesAnEventFromAMinionThatIsNotAccepted() {
        keys.move("web1", KeyState.ACCEPTED, KeyState.REJECTED);

        assertThat(handler.handle(event("web1", tok(web1), "myapp/x", Map.of()), null)).isEqualTo(false);
        assertThat(handler.handle(event("ghost", tok(web1), "myapp/x", Map.of()), null)).isEqualTo(false);
        assertThat(events.all()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"salt/minion/web1/start", "minion_start", "myapp/thing", "custom", "salt/minion/web1/custom/deep",
            "jsalt/supervisor/web1/app/RUNNING"})
    void firesTheTagsAMinionMayUse(String tag) {
        assertThat(handler.handle(event("web1", tok(web1), tag, Map.of("k", "v")), null)).isEqualTo(true);
        assertThat(events.tags()).containsExactly(tag);
    }

    @ParameterizedTest
    @ValueSource(strings = {"salt/job/20260101120000123456/ret/web1", "salt/job/20260101120000123456/new",
            "salt/minion/web2/start", "salt/minion/web1x/start", "salt/minion/web1", "salt/auth", "salt/key", "",
            "jsalt/supervisor/web2/app/FATAL", "jsalt/supervisor/web1x/app/RUNNING", "jsalt/supervisor/web1"})
    void refusesTagsReservedForTheSystemOrAnotherMinion(String tag) {
        handler.handle(event("web1", tok(web1), tag, Map.of("k", "v")), null);
        assertThat(events.all()).isEmpty();
    }

    @Test
    void refusesAnOverlongTag() {
        handler.handle(event("web1", tok(web1), "myapp/" + "x".repeat(600), Map.of()), null);
        assertThat(events.all()).isEmpty();
    }

    @Test
    void firesABatchOfEventsInOrderSkippingReservedTags() {
        Map<String, Object> load = event("web1", tok(web1), "", null);
        load.put("events", List.of(
                Map.of("tag", "myapp/one", "data", Map.of("n", 1, "id", "web2")),
                Map.of("tag", "salt/job/20260101120000123456/ret/web2", "data", Map.of("n", 2)),
                Map.of("tag", "salt/minion/web1/two", "data", Map.of("n", 3))));

        assertThat(handler.handle(wire(load), null)).isEqualTo(true);

        assertThat(events.tags()).containsExactly("myapp/one", "salt/minion/web1/two");
        assertThat(events.all()).extracting(e -> e.data().get("id")).containsOnly("web1");
        assertThat(events.all()).extracting(e -> e.data().get("n")).containsExactly(1L, 3L);
    }

    @Test
    void bothStartEventsInOneBatchFireAsTheTwoSingleOnesAndOncePerSignIn() {
        // what a jsalt minion sends a jsalt master after signing in (StartEvents): Salt's batched form
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("id", "web1");
        load.put("cmd", "_minion_event");
        load.put("tok", tok(web1));
        load.put("events", List.of(Map.of("tag", "minion_start", "data", "Minion web1 started"),
                Map.of("tag", "salt/minion/web1/start", "data", "Minion web1 started")));

        assertThat(handler.handle(wire(load), null)).isEqualTo(true);
        assertThat(handler.handle(wire(load), null)).isEqualTo(true); // the same again: a replay, nothing fires

        assertThat(events.tags()).containsExactly("minion_start", "salt/minion/web1/start");
        for (EventFrame e : events.all()) {
            assertThat(withoutStamp(e.data())).containsOnly(entry("id", "web1"), entry("data", "Minion web1 started"));
        }
        Map<String, Object> single = event("web1", tok(web1), "salt/minion/web1/start", "Minion web1 started");
        signIns.signedIn("web1");
        handler.handle(single, null);
        // the single form's event, the same but for the bus's own stamp
        assertThat(withoutStamp(events.all().get(2).data())).isEqualTo(withoutStamp(events.all().get(1).data()));
    }

    private static Map<String, Object> withoutStamp(Map<String, Object> data) {
        Map<String, Object> copy = new LinkedHashMap<>(data);
        copy.remove("_stamp");
        return copy;
    }

    @Test
    void aBatchNeedsAValidTokenToo() {
        Map<String, Object> load = event("web1", tok(web2), "", null);
        load.put("events", List.of(Map.of("tag", "myapp/one", "data", Map.of())));

        assertThat(handler.handle(wire(load), null)).isEqualTo(false);
        assertThat(events.all()).isEmpty();
    }

    @Test
    void firesTheStartEventsOfARealSaltMinion() {
        keys.store(KeyState.ACCEPTED, "vector-minion", SaltVectors.minionPub());
        signIns.signedIn("vector-minion");

        for (String frame : List.of("006-minion-to-master-minion-event", "008-minion-to-master-minion-event")) {
            Map<String, Object> load = SaltVectors.aesRequestLoad(frame);
            load.remove("nonce");
            assertThat(handler.handle(load, null)).as(frame).isEqualTo(true);
        }

        assertThat(events.tags()).containsExactly("minion_start", "salt/minion/vector-minion/start");
        for (EventFrame e : events.all()) {
            assertThat(e.data()).containsEntry("id", "vector-minion")
                    .containsEntry("data", "Minion vector-minion started at Sun Nov 22 06:45:05 2026");
        }
    }

    @Test
    void aRealSaltMinionsTokenDoesNotProveAnotherId() {
        keys.store(KeyState.ACCEPTED, "vector-minion", SaltVectors.minionPub());
        Map<String, Object> load = SaltVectors.aesRequestLoad("008-minion-to-master-minion-event");
        load.remove("nonce");
        load.put("id", "web1");

        assertThat(handler.handle(load, null)).isEqualTo(false);
        assertThat(events.all()).isEmpty();
    }

    @Test
    void aStartEventSignedAsASaltMinionSignsPinsTheMinion() {
        MinionEventHandler withTrust = new MinionEventHandler(keys, new EventBus(), new MinionTrust(keys, () -> false), signIns);
        Map<String, Object> load = new MinionEvent("web1", tok(web1), "salt/minion/web1/start", "Minion web1 started").toLoad();
        load.put("sig", Rsa.sign(web1.getPrivate(), SaltPack.packBinType(load)));
        load.put("_stamp", "2026-01-01T12:00:00.000001"); // the salt-minion's event bus adds it after signing

        assertThat(withTrust.handle(wire(load), null)).isEqualTo(true);

        assertThat(keys.signingPins().pinned("web1", web1.getPublic())).isTrue();
    }

    @Test
    void aStartEventDroppedAsAReplayTellsTheTrustPolicyNothing() {
        MinionEventHandler withTrust = new MinionEventHandler(keys, new EventBus(), new MinionTrust(keys, () -> false), signIns);
        // web2 has not signed in: its start event, however well signed, is a replay
        Map<String, Object> load = new MinionEvent("web2", tok(web2), "salt/minion/web2/start", "Minion web2 started").toLoad();
        load.put("sig", Rsa.sign(web2.getPrivate(), SaltPack.packBinType(load)));

        assertThat(withTrust.handle(wire(load), null)).isEqualTo(true);

        assertThat(keys.signingPins().pinned("web2", web2.getPublic())).isFalse();
    }

    @Test
    void anUnsignedStartEventLeavesTheMinionUnpinned() {
        MinionEventHandler withTrust = new MinionEventHandler(keys, new EventBus(), new MinionTrust(keys, () -> false), signIns);

        assertThat(withTrust.handle(event("web1", tok(web1), "salt/minion/web1/start", "started"), null)).isEqualTo(true);

        assertThat(keys.signingPins().pinned("web1", web1.getPublic())).isFalse();
    }

    @Test
    void aStartEventSignedByAnotherKeyPinsNothing() {
        MinionEventHandler withTrust = new MinionEventHandler(keys, new EventBus(), new MinionTrust(keys, () -> false), signIns);
        Map<String, Object> load = new MinionEvent("web1", tok(web1), "salt/minion/web1/start", "started").toLoad();
        load.put("sig", Rsa.sign(web2.getPrivate(), SaltPack.packBinType(load)));

        withTrust.handle(wire(load), null);

        assertThat(keys.signingPins().pinned("web1", web1.getPublic())).isFalse();
    }

    private static byte[] tok(KeyPair key) {
        return Rsa.x931PrivateEncrypt(key.getPrivate(), "salt".getBytes(StandardCharsets.US_ASCII));
    }

    private static Map<String, Object> event(String id, byte[] tok, String tag, Object data) {
        return wire(new MinionEvent(id, tok, tag, data).toLoad());
    }

    private static Map<String, Object> wire(Map<String, Object> load) {
        return new LinkedHashMap<>(Wire.asMap(SaltPack.unpack(SaltPack.pack(load))));
    }
}
