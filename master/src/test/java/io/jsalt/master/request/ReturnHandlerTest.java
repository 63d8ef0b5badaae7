package io.jsalt.master.request;

import static io.jsalt.master.request.Answers.answer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.master.data.MinionDataCache;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.jobs.JobReturn;
import io.jsalt.master.jobs.MemoryJobCache;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.support.RecordedEvents;
import io.jsalt.master.support.SaltVectors;
import io.jsalt.master.support.TestKeys;
import io.jsalt.master.targeting.TargetResolver;
import io.jsalt.crypto.Rsa;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.event.EventFrame;
import io.jsalt.transport.message.ReturnLoad;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReturnHandlerTest {
    private static final String JID = "20260101120000123456";

    @TempDir
    Path pki;
    KeyStore keys;
    final MemoryJobCache jobs = new MemoryJobCache();
    final RecordedEvents events = new RecordedEvents();
    final AtomicBoolean requireSignature = new AtomicBoolean(true);
    final KeyPair web1 = TestKeys.minion(1);
    final KeyPair web2 = TestKeys.minion(2);
    ReturnHandler handler;

    @BeforeEach
    void setUp() {
        keys = new KeyStore(pki);
        keys.store(KeyState.ACCEPTED, "web1", TestKeys.pem(web1));
        keys.store(KeyState.ACCEPTED, "web2", TestKeys.pem(web2));
        EventBus bus = new EventBus();
        bus.addListener(events);
        handler = handlerOn(keys, bus);
        jobs.saveJob(new Job(JID, "test.ping", List.of(), "web*", "glob", "root", List.of("web1", "web2"), Instant.now()));
    }

    private ReturnHandler handlerOn(KeyStore store, EventBus bus) {
        return new ReturnHandler(store, jobs, bus, new Jids(), new MinionTrust(store, requireSignature::get),
                new TargetResolver(store, new MinionDataCache(), Map.of()));
    }

    @AfterEach
    void tearDown() {
        jobs.close();
    }

    @Test
    void takesAReturnSignedByTheAcceptedKeyOfTheMinionItNames() {
        Object result = answer(handler.handle(wire(ret("web1", JID).toSignedLoad(web1.getPrivate())), null));

        assertThat(result).isEqualTo(true);
        assertThat(jobs.returns(JID)).singleElement().satisfies(r -> {
            assertThat(r.id()).isEqualTo("web1");
            assertThat(r.ret()).isEqualTo("pong");
            assertThat(r.retcode()).isZero();
            assertThat(r.success()).isTrue();
        });
        EventFrame event = events.tagged("salt/job/" + JID + "/ret/web1").get(0);
        assertThat(events.all()).hasSize(1);
        assertThat(event.data()).containsEntry("id", "web1").containsEntry("jid", JID).containsEntry("return", "pong")
                .containsEntry("fun", "test.ping").containsEntry("cmd", "_return").containsKey("_stamp")
                .doesNotContainKey("sig");
    }

    @Test
    void refusesAReturnSignedByAnotherMinionsKey() {
        Object result = answer(handler.handle(wire(ret("web1", JID).toSignedLoad(web2.getPrivate())), null));

        assertThat(result).isEqualTo(false);
        assertThat(jobs.returns(JID)).isEmpty();
        assertThat(events.all()).isEmpty();
    }

    @Test
    void refusesAReturnWhoseSignedFieldsWereChanged() {
        Map<String, Object> load = new LinkedHashMap<>(ret("web1", JID).toSignedLoad(web1.getPrivate()));
        load.put("return", "forged");

        assertThat(answer(handler.handle(wire(load), null))).isEqualTo(false);
        assertThat(jobs.returns(JID)).isEmpty();
        assertThat(events.all()).isEmpty();
    }

    @Test
    void refusesAnUnsignedReturnWhenSignaturesAreRequired() {
        assertThat(answer(handler.handle(wire(ret("web1", JID).toLoad()), null))).isEqualTo(false);
        assertThat(jobs.returns(JID)).isEmpty();
        assertThat(events.all()).isEmpty();
    }

    @Test
    void takesAnUnsignedReturnOfAMinionThatNeverSignedAsUnverified() {
        requireSignature.set(false);

        assertThat(answer(handler.handle(wire(ret("web1", JID).toLoad()), null))).isEqualTo(true);
        assertThat(jobs.returns(JID)).singleElement().satisfies(r -> {
            assertThat(r.id()).isEqualTo("web1");
            assertThat(r.verified()).isFalse();
        });
        assertThat(events.tags()).containsExactly("salt/job/" + JID + "/ret/web1");
        assertThat(events.all().get(0).data()).containsEntry("verified", false);
    }

    @Test
    void aSignedReturnIsMarkedVerified() {
        requireSignature.set(false);

        assertThat(answer(handler.handle(wire(ret("web1", JID).toSignedLoad(web1.getPrivate())), null))).isEqualTo(true);

        assertThat(jobs.returns(JID)).singleElement().extracting(JobReturn::verified).isEqualTo(true);
        assertThat(events.all().get(0).data()).containsEntry("verified", true);
    }

    @Test
    void aMinionThatSignedOnceIsPinnedAndItsUnsignedReturnsAreRefused() {
        requireSignature.set(false);
        String second = "20260101120000654321";
        jobs.saveJob(new Job(second, "test.ping", List.of(), "web1", "glob", "root", List.of("web1"), Instant.now()));
        assertThat(answer(handler.handle(wire(ret("web1", JID).toSignedLoad(web1.getPrivate())), null))).isEqualTo(true);

        assertThat(answer(handler.handle(wire(ret("web1", second).toLoad()), null))).isEqualTo(false);

        assertThat(jobs.returns(second)).isEmpty();
        assertThat(events.tags()).containsExactly("salt/job/" + JID + "/ret/web1");
    }

    @Test
    void thePinSurvivesARestartOfTheMasterAndGoesWithTheDeletedKey() {
        requireSignature.set(false);
        assertThat(answer(handler.handle(wire(ret("web1", JID).toSignedLoad(web1.getPrivate())), null))).isEqualTo(true);
        String second = "20260101120000654321";
        jobs.saveJob(new Job(second, "test.ping", List.of(), "web1", "glob", "root", List.of("web1"), Instant.now()));

        KeyStore restarted = new KeyStore(pki);
        ReturnHandler afterRestart = handlerOn(restarted, new EventBus());
        assertThat(answer(afterRestart.handle(wire(ret("web1", second).toLoad()), null))).as("still pinned").isEqualTo(false);

        restarted.delete("web1");
        restarted.store(KeyState.ACCEPTED, "web1", TestKeys.pem(web1));
        assertThat(answer(afterRestart.handle(wire(ret("web1", second).toLoad()), null))).as("the pin went with the key").isEqualTo(true);
        assertThat(jobs.returns(second)).singleElement().extracting(JobReturn::verified).isEqualTo(false);
    }

    @Test
    void aPinHoldsOnlyForTheKeyThatSigned() {
        requireSignature.set(false);
        assertThat(answer(handler.handle(wire(ret("web1", JID).toSignedLoad(web1.getPrivate())), null))).isEqualTo(true);
        keys.store(KeyState.ACCEPTED, "web1", TestKeys.pem(web2)); // replaced behind the master's back

        assertThat(keys.signingPins().pinned("web1", web2.getPublic())).isFalse();
        assertThat(keys.signingPins().pinned("web2", web2.getPublic())).isFalse();
    }

    @Test
    void verifiesTheSignatureOfASaltMinionWhoseEventBusAddedAStampAfterSigning() {
        requireSignature.set(false);
        Map<String, Object> load = ret("web1", JID).toLoad();
        load.put("sig", Rsa.sign(web1.getPrivate(), SaltPack.packBinType(load)));
        load.put("_stamp", "2026-01-01T12:00:00.123456"); // salt/utils/event.py fire_event, after _send_req signed

        assertThat(answer(handler.handle(wire(load), null))).isEqualTo(true);

        assertThat(jobs.returns(JID)).singleElement().extracting(JobReturn::verified).isEqualTo(true);
    }

    @Test
    void refusesAReturnForAJidTheMasterNeverIssued() {
        requireSignature.set(false);
        String madeUp = "20250101120000000000";

        assertThat(answer(handler.handle(wire(ret("web1", madeUp).toSignedLoad(web1.getPrivate())), null))).isEqualTo(false);
        assertThat(answer(handler.handle(wire(ret("web1", madeUp).toLoad()), null))).isEqualTo(false);

        assertThat(jobs.returns(madeUp)).isEmpty();
        assertThat(events.all()).isEmpty();
    }

    @Test
    void refusesAReturnForAJobThatDidNotTargetThatMinion() {
        requireSignature.set(false);
        String onlyWeb2 = "20260101120000777777";
        jobs.saveJob(new Job(onlyWeb2, "test.ping", List.of(), "web2", "glob", "root", List.of("web2"), Instant.now()));

        assertThat(answer(handler.handle(wire(ret("web1", onlyWeb2).toSignedLoad(web1.getPrivate())), null))).isEqualTo(false);
        assertThat(answer(handler.handle(wire(ret("web1", onlyWeb2).toLoad()), null))).isEqualTo(false);

        assertThat(jobs.returns(onlyWeb2)).isEmpty();
    }

    @Test
    void takesAReturnFromAMinionTheJobsTargetReachesThoughItWasNotListed() {
        String everyone = "20260101120000888888";
        jobs.saveJob(new Job(everyone, "test.ping", List.of(), "*", "glob", "root", List.of("web2"), Instant.now()));

        assertThat(answer(handler.handle(wire(ret("web1", everyone).toSignedLoad(web1.getPrivate())), null))).isEqualTo(true);
    }

    @Test
    void aBadSignatureIsRefusedEvenWhenSignaturesAreNotRequired() {
        requireSignature.set(false);

        assertThat(answer(handler.handle(wire(ret("web1", JID).toSignedLoad(web2.getPrivate())), null))).isEqualTo(false);
        assertThat(jobs.returns(JID)).isEmpty();
    }

    @Test
    void refusesAReturnFromAMinionThatIsNotAccepted() {
        keys.move("web1", KeyState.ACCEPTED, KeyState.PENDING);
        requireSignature.set(false);

        assertThat(answer(handler.handle(wire(ret("web1", JID).toSignedLoad(web1.getPrivate())), null))).isEqualTo(false);
        assertThat(answer(handler.handle(wire(ret("ghost", JID).toLoad()), null))).isEqualTo(false);
        assertThat(jobs.returns(JID)).isEmpty();
        assertThat(events.all()).isEmpty();
    }

    @Test
    void takesOnlyTheFirstReturnOfAMinionForAJob() {
        assertThat(answer(handler.handle(wire(ret("web1", JID).toSignedLoad(web1.getPrivate())), null))).isEqualTo(true);
        ReturnLoad second = new ReturnLoad("web1", JID, "test.ping", List.of(), "second", 0, true);

        // answered true (stored already: the minion may forget it, as when another master of a shared job cache
        // stored it and died before answering), but neither stored nor fired again
        assertThat(answer(handler.handle(wire(second.toSignedLoad(web1.getPrivate())), null))).isEqualTo(true);

        assertThat(jobs.returns(JID)).singleElement().extracting(JobReturn::ret).isEqualTo("pong");
        assertThat(events.all()).hasSize(1);
    }

    @Test
    void twoMinionsMayReturnForTheSameJob() {
        assertThat(answer(handler.handle(wire(ret("web1", JID).toSignedLoad(web1.getPrivate())), null))).isEqualTo(true);
        assertThat(answer(handler.handle(wire(ret("web2", JID).toSignedLoad(web2.getPrivate())), null))).isEqualTo(true);

        assertThat(jobs.returns(JID)).extracting(JobReturn::id).containsExactly("web1", "web2");
    }

    @Test
    void aReturnWithJidReqGetsAFreshJidAStoredJobAndBothEvents() {
        Map<String, Object> load = new ReturnLoad("web1", "req", "test.echo", List.of("hi"), "hi", 0, true).toLoad();
        load.put("user", "admin"); // a minion's claim: not taken
        load.put("sig", io.jsalt.crypto.Rsa.sign(web1.getPrivate(), SaltPack.packBinType(load)));

        Object result = answer(handler.handle(wire(load), null));

        assertThat(result).isInstanceOf(Map.class);
        String jid = (String) ((Map<?, ?>) result).get("jid");
        assertThat(jid).matches("[0-9]{20}");
        assertThat(jobs.returns("req")).isEmpty();
        assertThat(jobs.returns(jid)).extracting(JobReturn::id, JobReturn::ret)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("web1", "hi"));
        assertThat(jobs.job(jid)).get().satisfies(job -> {
            assertThat(job.fun()).isEqualTo("test.echo");
            assertThat(job.arg()).containsExactly("hi");
            assertThat(job.tgt()).isEqualTo("web1");
            assertThat(job.tgtType()).as("as Salt's store_job").isEqualTo("glob");
            assertThat(job.user()).as("the minion, not a user it names").isEqualTo("minion:web1");
            assertThat(job.minions()).containsExactly("web1");
        });
        assertThat(events.tags()).containsExactly("salt/job/" + jid + "/new", "salt/job/" + jid + "/ret/web1");
        assertThat(events.all().get(0).data()).containsEntry("jid", jid).containsEntry("fun", "test.echo")
                .containsEntry("tgt", "web1").containsEntry("tgt_type", "glob").containsEntry("user", "minion:web1")
                .containsEntry("minions", List.of("web1")).containsEntry("arg", List.of("hi"));
        assertThat(events.all().get(1).data()).containsEntry("jid", jid).containsEntry("return", "hi");
    }

    @Test
    void aReturnWithJidReqAndNoUserIsStoredAsTheMinions() {
        Object result = answer(handler.handle(wire(ret("web1", "req").toSignedLoad(web1.getPrivate())), null));

        String jid = (String) ((Map<?, ?>) result).get("jid");
        assertThat(jobs.job(jid)).get().extracting(io.jsalt.master.jobs.Job::user).isEqualTo("minion:web1");
    }

    @Test
    void aReturnWithJidReqStillNeedsTheSignatureOfTheMinionItNames() {
        assertThat(answer(handler.handle(wire(ret("web1", "req").toSignedLoad(web2.getPrivate())), null))).isEqualTo(false);
        assertThat(answer(handler.handle(wire(ret("ghost", "req").toSignedLoad(web1.getPrivate())), null))).isEqualTo(false);

        assertThat(events.all()).isEmpty();
        assertThat(jobs.jobsBetween(null, null)).extracting(Job::jid).containsExactly(JID);
    }

    @Test
    void twoSaltCallReturnsGetDistinctJids() {
        Object first = answer(handler.handle(wire(ret("web1", "req").toSignedLoad(web1.getPrivate())), null));
        Object second = answer(handler.handle(wire(ret("web1", "req").toSignedLoad(web1.getPrivate())), null));

        assertThat(((Map<?, ?>) first).get("jid")).isNotEqualTo(((Map<?, ?>) second).get("jid"));
        assertThat(jobs.jobsBetween(null, null)).hasSize(3); // the setUp's job and these two
    }

    @Test
    void refusesAMalformedJid() {
        for (String jid : List.of("", "abc", "2026010112000012345", "202601011200001234567", "../../etc/passwd", "2026010112000012345x")) {
            assertThat(answer(handler.handle(wire(ret("web1", jid).toSignedLoad(web1.getPrivate())), null))).as(jid).isEqualTo(false);
        }
        assertThat(events.all()).isEmpty();
    }

    @Test
    void anInvalidIdIsAWireError() {
        Map<String, Object> load = ret("web1", JID).toLoad();
        load.put("id", "../web1");

        assertThatThrownBy(() -> answer(handler.handle(wire(load), null))).isInstanceOf(WireException.class);
        assertThat(events.all()).isEmpty();
    }

    @Test
    void refusesTheUnsignedReturnOfARealSaltMinionOnlyWhenSignaturesAreRequired() {
        keys.store(KeyState.ACCEPTED, "vector-minion", SaltVectors.minionPub());
        Map<String, Object> load = SaltVectors.aesRequestLoad("011-minion-to-master-job-return");
        load.remove("nonce"); // as the dispatcher does
        String jid = Wire.string(load, "jid");
        jobs.saveJob(new Job(jid, "test.ping", List.of(), "*", "glob", "root", List.of("vector-minion"), Instant.now()));

        assertThat(answer(handler.handle(new LinkedHashMap<>(load), null))).isEqualTo(false);
        requireSignature.set(false);
        assertThat(answer(handler.handle(new LinkedHashMap<>(load), null))).isEqualTo(true);

        assertThat(jobs.returns(jid)).singleElement().satisfies(r -> {
            assertThat(r.id()).isEqualTo("vector-minion");
            assertThat(r.ret()).isEqualTo(true);
            assertThat(r.verified()).isFalse();
        });
        assertThat(events.tags()).containsExactly("salt/job/" + jid + "/ret/vector-minion");
    }

    private static ReturnLoad ret(String id, String jid) {
        return new ReturnLoad(id, jid, "test.ping", List.of(), "pong", 0, true);
    }

    /** The load as the dispatcher hands it over: through Salt's packing and back, nonce removed. */
    private static Map<String, Object> wire(Map<String, Object> load) {
        return Wire.asMap(SaltPack.unpack(SaltPack.pack(load)));
    }
}
