package io.jsalt.master.keys;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.crypto.Fingerprint;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.support.RecordedEvents;
import io.jsalt.master.support.TestKeys;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyAdminTest {
    @TempDir
    Path pki;
    KeyStore keys;
    RecordedEvents events = new RecordedEvents();
    AtomicInteger revocations = new AtomicInteger();
    KeyAdmin admin;
    String pem;

    @BeforeEach
    void setUp() {
        keys = new KeyStore(pki);
        EventBus bus = new EventBus();
        bus.addListener(events);
        admin = new KeyAdmin(keys, bus, revocations::incrementAndGet);
        pem = TestKeys.pem(TestKeys.minion(0));
    }

    @Test
    void forgetsWhatIsKnownOfEachDeletedOrRejectedMinion() {
        List<String> forgotten = new java.util.ArrayList<>();
        KeyAdmin forgetting = new KeyAdmin(keys, new EventBus(), () -> { }, forgotten::add);
        keys.store(KeyState.ACCEPTED, "web1", pem);
        keys.store(KeyState.ACCEPTED, "web2", pem);
        keys.store(KeyState.PENDING, "db1", pem);

        forgetting.reject("web1", true, false);
        forgetting.delete("db1");
        forgetting.accept("*", false, false);

        assertThat(forgotten).containsExactly("web1", "db1");
    }

    @Test
    void acceptMovesMatchingPendingKeysOnly() {
        keys.store(KeyState.PENDING, "web1", pem);
        keys.store(KeyState.PENDING, "web2", pem);
        keys.store(KeyState.PENDING, "db1", pem);
        keys.store(KeyState.REJECTED, "web3", pem);
        keys.store(KeyState.DENIED, "web4", pem);

        assertThat(admin.accept("web*", false, false)).containsExactly("web1", "web2");

        assertThat(keys.list(KeyState.ACCEPTED)).containsExactly("web1", "web2");
        assertThat(keys.list(KeyState.PENDING)).containsExactly("db1");
        assertThat(keys.stateOf("web3")).contains(KeyState.REJECTED);
        assertThat(keys.stateOf("web4")).contains(KeyState.DENIED);
        assertThat(events.tagged("salt/key")).extracting(e -> e.data().get("act"), e -> e.data().get("id"))
                .containsExactly(org.assertj.core.groups.Tuple.tuple("accept", "web1"),
                        org.assertj.core.groups.Tuple.tuple("accept", "web2"));
        assertThat(revocations).hasValue(0);
    }

    @Test
    void acceptTakesRejectedAndDeniedKeysOnlyWhenAskedTo() {
        keys.store(KeyState.REJECTED, "web3", pem);
        keys.store(KeyState.DENIED, "web4", pem);

        assertThat(admin.accept("*", true, false)).containsExactly("web3");
        assertThat(keys.stateOf("web4")).contains(KeyState.DENIED);
        assertThat(admin.accept("*", false, true)).containsExactly("web4");

        assertThat(keys.list(KeyState.ACCEPTED)).containsExactly("web3", "web4");
        assertThat(events.acts("salt/key")).containsExactly("accept", "accept");
    }

    @Test
    void acceptOfAnExactIdLeavesSimilarIdsAlone() {
        keys.store(KeyState.PENDING, "web1", pem);
        keys.store(KeyState.PENDING, "web10", pem);

        assertThat(admin.accept("web1", false, false)).containsExactly("web1");
        assertThat(keys.list(KeyState.PENDING)).containsExactly("web10");
    }

    @Test
    void acceptOfNothingMatchingChangesNothingAndFiresNothing() {
        keys.store(KeyState.PENDING, "web1", pem);

        assertThat(admin.accept("db*", true, true)).isEmpty();

        assertThat(keys.stateOf("web1")).contains(KeyState.PENDING);
        assertThat(events.all()).isEmpty();
    }

    @Test
    void rejectingPendingKeysDoesNotRevokeAnything() {
        keys.store(KeyState.PENDING, "web1", pem);
        keys.store(KeyState.ACCEPTED, "web2", pem);

        assertThat(admin.reject("web*", false, false)).containsExactly("web1");

        assertThat(keys.stateOf("web1")).contains(KeyState.REJECTED);
        assertThat(keys.stateOf("web2")).contains(KeyState.ACCEPTED);
        assertThat(events.acts("salt/key")).containsExactly("reject");
        assertThat(revocations).hasValue(0);
    }

    @Test
    void rejectingAcceptedKeysRevokesOnceForTheWholeCall() {
        keys.store(KeyState.ACCEPTED, "web1", pem);
        keys.store(KeyState.ACCEPTED, "web2", pem);
        keys.store(KeyState.DENIED, "web3", pem);

        assertThat(admin.reject("web*", true, false)).containsExactly("web1", "web2");

        assertThat(keys.list(KeyState.REJECTED)).containsExactly("web1", "web2");
        assertThat(keys.stateOf("web3")).contains(KeyState.DENIED);
        assertThat(revocations).hasValue(1);
        assertThat(events.acts("salt/key")).containsExactly("reject", "reject");
    }

    @Test
    void rejectTakesDeniedKeysOnlyWhenAskedTo() {
        keys.store(KeyState.DENIED, "web3", pem);

        assertThat(admin.reject("*", false, false)).isEmpty();
        assertThat(admin.reject("*", false, true)).containsExactly("web3");

        assertThat(keys.stateOf("web3")).contains(KeyState.REJECTED);
        assertThat(revocations).hasValue(0);
    }

    @Test
    void deletingAnAcceptedKeyRevokes() {
        keys.store(KeyState.ACCEPTED, "web1", pem);
        keys.store(KeyState.PENDING, "web2", pem);

        assertThat(admin.delete("web1")).containsExactly("web1");

        assertThat(keys.stateOf("web1")).isEmpty();
        assertThat(keys.stateOf("web2")).contains(KeyState.PENDING);
        assertThat(revocations).hasValue(1);
        assertThat(events.tagged("salt/key")).singleElement()
                .satisfies(e -> assertThat(e.data()).containsEntry("act", "delete").containsEntry("id", "web1"));
    }

    @Test
    void deletingKeysThatWereNeverAcceptedDoesNotRevoke() {
        keys.store(KeyState.PENDING, "web1", pem);
        keys.store(KeyState.REJECTED, "web2", pem);
        keys.store(KeyState.DENIED, "web3", pem);

        assertThat(admin.delete("web*")).containsExactlyInAnyOrder("web1", "web2", "web3");

        assertThat(keys.listAll().values()).allMatch(List::isEmpty);
        assertThat(revocations).hasValue(0);
        assertThat(events.acts("salt/key")).containsExactly("delete", "delete", "delete");
    }

    @Test
    void deletingAnIdInTwoStatesReportsItOnce() {
        keys.store(KeyState.ACCEPTED, "web1", pem);
        keys.store(KeyState.DENIED, "web1", pem);

        assertThat(admin.delete("*")).containsExactly("web1");

        assertThat(keys.stateOf("web1")).isEmpty();
        assertThat(events.acts("salt/key")).containsExactly("delete");
        assertThat(revocations).hasValue(1);
    }

    @Test
    void globsFollowFnmatch() {
        keys.store(KeyState.PENDING, "web1", pem);
        keys.store(KeyState.PENDING, "web2", pem);
        keys.store(KeyState.PENDING, "web3", pem);
        keys.store(KeyState.PENDING, "db1", pem);

        assertThat(admin.accept("web[12]", false, false)).containsExactly("web1", "web2");
        assertThat(admin.accept("?b?", false, false)).containsExactly("db1");
        assertThat(keys.list(KeyState.PENDING)).containsExactly("web3");
    }

    @Test
    void listAllUsesSaltsFolderNames() {
        keys.store(KeyState.ACCEPTED, "web1", pem);
        keys.store(KeyState.PENDING, "web2", pem);

        assertThat(admin.listAll()).containsExactly(
                Map.entry("minions", List.of("web1")),
                Map.entry("minions_pre", List.of("web2")),
                Map.entry("minions_rejected", List.of()),
                Map.entry("minions_denied", List.of()));
    }

    @Test
    void fingerGivesTheSha256FingerprintOfMatchingKeys() {
        String other = TestKeys.pem(TestKeys.minion(1));
        keys.store(KeyState.ACCEPTED, "web1", pem);
        keys.store(KeyState.PENDING, "web2", other);
        keys.store(KeyState.PENDING, "db1", other);

        Map<String, Object> prints = admin.finger("web*");

        assertThat(prints).containsEntry("minions", Map.of("web1", Fingerprint.sha256(pem)))
                .containsEntry("minions_pre", Map.of("web2", Fingerprint.sha256(other)))
                .containsEntry("minions_rejected", Map.of())
                .containsEntry("minions_denied", Map.of());
    }

    @Test
    void keyStateParsesSaltKeysWords() {
        assertThat(KeyState.parse("acc")).contains(KeyState.ACCEPTED);
        assertThat(KeyState.parse("un")).contains(KeyState.PENDING);
        assertThat(KeyState.parse("Unaccepted")).contains(KeyState.PENDING);
        assertThat(KeyState.parse("minions_rejected")).contains(KeyState.REJECTED);
        assertThat(KeyState.parse("den")).contains(KeyState.DENIED);
        assertThat(KeyState.parse("all")).isEmpty();
        assertThat(KeyState.PENDING.folder()).isEqualTo("minions_pre");
        assertThat(KeyState.PENDING.label()).isEqualTo("pending");
    }
}
