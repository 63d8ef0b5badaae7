package io.jsalt.master.request;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.master.cluster.ClusterException;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.keys.KeyAdmin;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.keys.MinionKeys;
import io.jsalt.master.session.SessionKey;
import io.jsalt.master.support.RecordedEvents;
import io.jsalt.master.support.TestKeys;
import io.jsalt.master.wheel.KeyWheel;
import io.jsalt.master.wheel.WheelFunctions;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.message.RequestEnvelope;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code wheel} calls as the running master serves them: Salt's answer, Salt's events, the key functions of jsalt-key. */
class WheelHandlerTest {
    @TempDir
    Path root;
    KeyStore keys;
    final RecordedEvents events = new RecordedEvents();
    final SessionKey session = new SessionKey();
    final AtomicInteger revocations = new AtomicInteger();
    String secret;
    WheelHandler handler;
    final io.jsalt.master.runner.RunnerCalls wheelCalls = new io.jsalt.master.runner.RunnerCalls();
    String pem;

    @BeforeEach
    void setUp() throws IOException {
        keys = new KeyStore(root.resolve("pki"));
        EventBus bus = new EventBus();
        bus.addListener(events);
        ClientKey clientKey = ClientKey.create(root.resolve("cache"), "tester");
        secret = ClientKey.read(root.resolve("cache"), "tester");
        KeyAdmin admin = new KeyAdmin(keys, bus, () -> {
            revocations.incrementAndGet();
            session.rotate("test");
        });
        handler = new WheelHandler(clientKey, new WheelFunctions(List.of(new KeyWheel(admin, keys))), new io.jsalt.master.jobs.Jids(),
                bus, wheelCalls);
        pem = TestKeys.pem(TestKeys.minion(0));
        keys.store(KeyState.PENDING, "web1", pem);
        keys.store(KeyState.PENDING, "web2", pem);
        keys.store(KeyState.REJECTED, "web3", pem);
        keys.store(KeyState.ACCEPTED, "db1", pem);
    }

    @Test
    void refusesABadClientKeyAndChangesNothing() {
        for (Object key : java.util.Arrays.asList("nope", "", null, 42L)) {
            Map<String, Object> load = call("key.accept", "*");
            load.put("key", key);
            load.put("include_rejected", true);

            assertThat(send(load)).isEqualTo(Map.of("enc", "clear", "load", Map.of("error", "Authentication error occurred.")));
        }
        assertThat(keys.list(KeyState.PENDING)).containsExactly("web1", "web2");
        assertThat(events.all()).isEmpty();
    }

    @Test
    void acceptsByGlob() {
        Map<String, Object> answer = Wire.map(send(call("key.accept", "web*")), "load");

        assertThat(answer).containsOnlyKeys("tag", "data");
        Map<String, Object> data = Wire.map(answer, "data");
        String jid = Wire.string(data, "jid");
        assertThat(jid).matches("\\d{20}");
        assertThat(answer.get("tag")).isEqualTo("salt/wheel/" + jid);
        assertThat(data).containsOnlyKeys("fun", "jid", "tag", "user", "_stamp", "return", "success")
                .containsEntry("fun", "wheel.key.accept").containsEntry("tag", "salt/wheel/" + jid).containsEntry("user", "root")
                .containsEntry("return", Map.of("minions", List.of("web1", "web2"), "minions_rejected", List.of("web3")))
                .containsEntry("success", true);
        assertThat(keys.list(KeyState.ACCEPTED)).containsExactly("db1", "web1", "web2");
        assertThat(keys.stateOf("web3")).contains(KeyState.REJECTED);
        assertThat(events.acts("salt/key")).containsExactly("accept", "accept");
    }

    @Test
    void acceptsRejectedKeysWithTheIncludeFlagAsSaltSendsIt() {
        Map<String, Object> load = call("key.accept", "web3");
        load.put("include_rejected", 1L);

        assertThat(result(send(load))).isEqualTo(Map.of("minions", List.of("web3")));
        assertThat(keys.stateOf("web3")).contains(KeyState.ACCEPTED);
    }

    @Test
    void rejectingAnAcceptedKeyRotatesTheSessionKey() {
        String before = session.keyString();
        Map<String, Object> load = call("key.reject", "db1");

        // Salt's answer: where the matching keys are afterwards, changed or not
        assertThat(result(send(load))).isEqualTo(Map.of("minions", List.of("db1")));
        assertThat(revocations).hasValue(0);

        load.put("include_accepted", true);
        assertThat(result(send(load))).isEqualTo(Map.of("minions_rejected", List.of("db1")));

        assertThat(keys.stateOf("db1")).contains(KeyState.REJECTED);
        assertThat(revocations).hasValue(1);
        assertThat(session.keyString()).isNotEqualTo(before);
        assertThat(events.acts("salt/key")).containsExactly("reject");
    }

    @Test
    void deletingAPendingKeyKeepsTheSessionKey() {
        String before = session.keyString();

        assertThat(result(send(call("key.delete", "web1")))).isEqualTo(Map.of());

        assertThat(keys.stateOf("web1")).isEmpty();
        assertThat(session.keyString()).isEqualTo(before);
        assertThat(events.acts("salt/key")).containsExactly("delete");
    }

    @Test
    void deletingAnAcceptedKeyRotatesTheSessionKey() {
        String before = session.keyString();

        assertThat(result(send(call("key.delete", "db*")))).isEqualTo(Map.of());

        assertThat(session.keyString()).isNotEqualTo(before);
        assertThat(revocations).hasValue(1);
    }

    @Test
    void listsAllKeys() {
        Map<String, Object> load = call("key.list_all", null);
        load.remove("match");

        assertThat(result(send(load))).isEqualTo(Map.of(
                "minions", List.of("db1"),
                "minions_pre", List.of("web1", "web2"),
                "minions_rejected", List.of("web3"),
                "minions_denied", List.of(),
                "local", List.of()));
    }

    @Test
    void givesFingerprints() {
        Map<String, Object> prints = Wire.asMap(result(send(call("key.finger", "db1"))));

        assertThat(prints).containsOnlyKeys("minions"); // as Salt's: only the statuses with a match
        assertThat(Wire.map(prints, "minions")).containsOnlyKeys("db1");
        assertThat((String) Wire.map(prints, "minions").get("db1")).matches("([0-9a-f]{2}:){31}[0-9a-f]{2}");
    }

    @Test
    void aFunctionOutsideTheAllowlistFailsInSaltsWordsAndChangesNothing() {
        for (String fun : List.of("key.gen_keys", "config.update_config", "key", "__import__", "")) {
            Map<String, Object> data = Wire.map(Wire.map(send(call(fun, "*")), "load"), "data");
            assertThat(data).containsEntry("success", false)
                    .containsEntry("return", "Exception occurred in wheel " + fun + ": '" + fun + "' is not available.");
        }
        assertThat(events.tagged("salt/key")).isEmpty();
        assertThat(keys.list(KeyState.PENDING)).containsExactly("web1", "web2");
    }

    @Test
    void aSynchronousCallFiresSaltsFourWheelEventsInSaltsOrder() {
        Map<String, Object> load = call("key.finger", "db1");
        load.put("user", "ops");

        Map<String, Object> data = Wire.map(Wire.map(send(load), "load"), "data");

        String outer = Wire.string(data, "jid");
        List<String> tags = events.tags().stream().filter(t -> t.startsWith("salt/wheel/")).toList();
        assertThat(tags).hasSize(4);
        String inner = tags.get(1).split("/")[2];
        assertThat(inner).matches("\\d{20}").isNotEqualTo(outer);
        assertThat(tags).containsExactly("salt/wheel/" + outer + "/new", "salt/wheel/" + inner + "/new",
                "salt/wheel/" + inner + "/ret", "salt/wheel/" + outer + "/ret");
        assertThat(events.tagged("salt/wheel/" + outer + "/new").get(0).data())
                .containsOnlyKeys("fun", "jid", "tag", "user", "_stamp").containsEntry("user", "ops");
        // the WheelClient's pair: the arguments as Salt's format_call binds them, no tag
        assertThat(events.tagged("salt/wheel/" + inner + "/new").get(0).data())
                .containsOnlyKeys("fun", "jid", "user", "fun_args", "_stamp")
                .containsEntry("fun_args", java.util.Arrays.asList("db1", java.util.Collections.singletonMap("hash_type", null)));
        assertThat(events.tagged("salt/wheel/" + inner + "/ret").get(0).data())
                .containsOnlyKeys("fun", "jid", "user", "fun_args", "_stamp", "return", "success")
                .containsEntry("return", data.get("return"));
        assertThat(events.tagged("salt/wheel/" + outer + "/ret").get(0).data())
                .containsOnlyKeys("fun", "jid", "tag", "user", "_stamp", "return", "success").containsEntry("success", true);
        assertThat(wheelCalls.find(outer)).isPresent();
        assertThat(wheelCalls.find(inner)).isPresent();
    }

    @Test
    void argumentsThatDoNotFitTheFunctionFailInItsReturnAndRunNothing() {
        Map<String, Object> missing = call("key.accept", null);
        missing.remove("match");
        Map<String, Object> unknown = call("key.accept", "web1");
        unknown.put("colour", "red");
        Map<String, Object> badType = call("key.accept", "web1");
        badType.put("include_rejected", "perhaps");

        assertThat(failure(missing)).isEqualTo("Exception occurred in wheel key.accept: "
                + "key.accept(match, include_rejected=False, include_denied=False): missing required argument 'match'");
        assertThat(failure(unknown)).endsWith("The following keyword arguments are not valid: colour=red");
        assertThat(failure(badType)).endsWith("argument 'include_rejected' must be True or False, not 'perhaps'");
        assertThat(keys.list(KeyState.PENDING)).containsExactly("web1", "web2");
        // Salt fires no "new" for a call it could not bind, and marks the return with retcode 1
        assertThat(events.tags().stream().filter(t -> t.endsWith("/new"))).hasSize(3);
        assertThat(events.all().stream().filter(e -> e.tag().endsWith("/ret") && !e.data().containsKey("tag")))
                .allSatisfy(e -> assertThat(e.data()).containsEntry("retcode", 1));
    }

    @Test
    void saltsInternalKeysAreNotArgumentsAndArgWithKwargIsTakenAsGiven() {
        Map<String, Object> load = call("key.list_all", "*"); // salt-api sends match along: Salt ignores it here
        load.put("client", "wheel");
        load.put("print_event", false);
        assertThat(result(send(load))).isInstanceOf(Map.class);

        Map<String, Object> both = call("key.accept", null);
        both.remove("match");
        both.put("arg", List.of("web1"));
        both.put("kwarg", Map.of("include_rejected", false));
        assertThat(result(send(both))).isEqualTo(Map.of("minions", List.of("web1")));
    }

    @Test
    void genAcceptStoresANewAcceptedKeyAndHandsBackBothHalvesOnce() {
        Map<String, Object> load = call("key.gen_accept", null);
        load.put("id_", "fresh");
        Map<String, Object> pair = Wire.asMap(result(send(load)));

        assertThat((String) pair.get("pub")).startsWith("-----BEGIN PUBLIC KEY-----");
        assertThat((String) pair.get("priv")).contains("PRIVATE KEY-----");
        assertThat(keys.pem(KeyState.ACCEPTED, "fresh")).contains((String) pair.get("pub"));
        assertThat(events.all()).isNotEmpty();
        assertThat(Wire.asMap(result(send(load)))).isEmpty(); // already accepted, no force
    }

    @Test
    void aWheelCallWithoutFunIsRefusedThroughTheDispatcher() {
        Map<String, Object> load = call("key.accept", "*");
        load.remove("fun");
        RequestDispatcher dispatcher = new RequestDispatcher(session, Map.of("wheel", handler), Map.of());

        Map<String, Object> reply = Wire.asMap(SaltPack.unpack(dispatcher.handle(RequestEnvelope.clear(load).encode())));

        assertThat(Wire.map(reply, "load")).containsKey("error");
        assertThat(keys.list(KeyState.PENDING)).containsExactly("web1", "web2");
    }

    @Test
    void aClusterWhoseDatabaseIsAwayAnswersTheErrorAndChangesNothing() throws IOException {
        // the key store of a cluster master while its database is away: reads from memory, changes refused
        MinionKeys away = (MinionKeys) java.lang.reflect.Proxy.newProxyInstance(MinionKeys.class.getClassLoader(),
                new Class<?>[] {MinionKeys.class}, (proxy, method, args) -> {
                    if (List.of("move", "store", "storeIfNew", "delete").contains(method.getName())) {
                        throw new ClusterException("cluster database postgresql://salt@db1:5432/salt is unreachable: Connection refused");
                    }
                    try {
                        return method.invoke(keys, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        ClientKey clientKey = ClientKey.create(root.resolve("cache"), "tester");
        secret = ClientKey.read(root.resolve("cache"), "tester");
        handler = new WheelHandler(clientKey, new WheelFunctions(List.of(new KeyWheel(new KeyAdmin(away, new EventBus(),
                revocations::incrementAndGet), away))), new io.jsalt.master.jobs.Jids(), new EventBus(), wheelCalls);

        assertThat(failure(call("key.accept", "web*"))).isEqualTo("Exception occurred in wheel key.accept: "
                + "cluster database postgresql://salt@db1:5432/salt is unreachable: Connection refused");
        assertThat(keys.list(KeyState.PENDING)).containsExactly("web1", "web2");
        assertThat(revocations).hasValue(0);
    }

    @Test
    void anAsynchronousCallAnswersTagAndJidAtOnceAndItsStartAndReturnGoOutAsSaltsWheelEvents() {
        Map<String, Object> load = call("key.accept", "web1");
        load.put("asynchronous", true);
        load.put("user", "ops");

        Map<String, Object> answer = Wire.map(send(load), "load");

        String jid = Wire.string(answer, "jid");
        assertThat(jid).matches("\\d{20}");
        assertThat(answer).isEqualTo(Map.of("tag", "salt/wheel/" + jid, "jid", jid));
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                .until(() -> events.tags().stream().filter(t -> t.startsWith("salt/wheel/") && t.endsWith("/ret")).count() == 2);
        // the answered jid is the WheelClient's, as salt-api's wheel_async: fun_args and no tag
        Map<String, Object> started = events.tagged("salt/wheel/" + jid + "/new").get(0).data();
        assertThat(started).containsEntry("fun", "wheel.key.accept").containsEntry("jid", jid).containsEntry("user", "ops")
                .containsEntry("fun_args", List.of("web1", Map.of("include_rejected", false, "include_denied", false)))
                .doesNotContainKey("tag");
        Map<String, Object> finished = events.tagged("salt/wheel/" + jid + "/ret").get(0).data();
        assertThat(finished).containsEntry("fun", "wheel.key.accept").containsEntry("user", "ops")
                .containsEntry("return", Map.of("minions", List.of("web1"))).containsEntry("success", true);
        // and the master's own pair, under a jid of its own, with the tag
        List<String> tags = events.tags().stream().filter(t -> t.startsWith("salt/wheel/") && !t.contains(jid)).toList();
        assertThat(tags).hasSize(2);
        assertThat(tags.get(0)).endsWith("/new");
        assertThat(tags.get(1)).endsWith("/ret");
        assertThat(keys.stateOf("web1")).contains(KeyState.ACCEPTED);
        // remembered for event_access: who, which function, its arguments without the request's own keys
        assertThat(wheelCalls.find(jid)).hasValueSatisfying(c -> {
            assertThat(c.user()).isEqualTo("ops");
            assertThat(c.fun()).isEqualTo("key.accept");
            assertThat(c.kwarg()).isEqualTo(Map.of("match", "web1"));
        });
    }

    @Test
    void anAsynchronousCallOfAnUnknownFunctionSaysSoInItsReturnEvent() {
        Map<String, Object> load = call("key.nope", "*");
        load.put("asynchronous", true);

        String jid = Wire.string(Wire.map(send(load), "load"), "jid");

        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                .until(() -> !events.tagged("salt/wheel/" + jid + "/ret").isEmpty());
        Map<String, Object> finished = events.tagged("salt/wheel/" + jid + "/ret").get(0).data();
        assertThat(finished).containsEntry("return", "Exception occurred in wheel key.nope: 'key.nope' is not available.")
                .containsEntry("success", false).containsEntry("user", "root");
        assertThat(keys.list(KeyState.PENDING)).containsExactly("web1", "web2");
    }

    private Map<String, Object> call(String fun, String match) {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "wheel");
        load.put("fun", fun);
        load.put("match", match);
        load.put("key", secret);
        return load;
    }

    private Map<String, Object> send(Map<String, Object> load) {
        Map<String, Object> onTheWire = Wire.asMap(SaltPack.unpack(SaltPack.pack(load)));
        return Wire.asMap(SaltPack.unpack(handler.handle(onTheWire)));
    }

    private static Object result(Map<String, Object> reply) {
        Map<String, Object> data = Wire.map(Wire.map(reply, "load"), "data");
        assertThat(data).containsEntry("success", true);
        return data.get("return");
    }

    private String failure(Map<String, Object> load) {
        Map<String, Object> data = Wire.map(Wire.map(send(load), "load"), "data");
        assertThat(data).containsEntry("success", false);
        return Wire.string(data, "return");
    }
}
