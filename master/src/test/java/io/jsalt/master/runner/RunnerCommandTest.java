package io.jsalt.master.runner;

import static io.jsalt.master.runner.Parameter.optional;
import static io.jsalt.master.runner.Parameter.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.master.events.EventBus;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.request.ClientKey;
import io.jsalt.master.runner.Parameter.Type;
import io.jsalt.master.support.RecordedEvents;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.event.EventFrame;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code runner} command over a registry of small functions made for the test. */
class RunnerCommandTest {
    @TempDir
    Path cachedir;
    final RecordedEvents events = new RecordedEvents();
    String secret;
    RunnerCommand command;
    final RunnerCalls calls = new RunnerCalls();
    final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);

    @org.junit.jupiter.api.AfterEach
    void tearDown() {
        release.countDown();
        command.close();
    }

    @BeforeEach
    void setUp() throws IOException {
        ClientKey key = ClientKey.create(cachedir, "tester");
        secret = ClientKey.read(cachedir, "tester");
        EventBus bus = new EventBus();
        bus.addListener(events);
        RunnerModule echo = () -> List.of(
                new RunnerFunction(RunnerSignature.of("demo.echo", required("text", Type.STRING),
                        optional("loud", Type.BOOLEAN, false)), "Return the text, upper case when loud.",
                        a -> a.bool("loud") ? a.string("text").toUpperCase() : a.string("text")),
                new RunnerFunction(RunnerSignature.of("demo.refuse"), a -> {
                    throw new RunnerException("no can do");
                }),
                new RunnerFunction(RunnerSignature.of("demo.bug"), a -> {
                    throw new IllegalStateException("a bug");
                }),
                new RunnerFunction(RunnerSignature.of("demo.wait"), a -> {
                    // bounded: a test that forgets to release must not hang its thread for ever
                    try {
                        return release.await(30, java.util.concurrent.TimeUnit.SECONDS) ? "released" : "timed out";
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return "interrupted";
                    }
                }));
        command = new RunnerCommand(key, new RunnerRegistry(List.of(echo)), new Jids(), bus, calls);
    }

    @Test
    void runsTheFunctionAndAnswersSaltsRunnerShape() {
        Map<String, Object> reply = call("demo.echo", List.of("hi"), Map.of("loud", true), secret);

        assertThat(reply).containsEntry("enc", "clear");
        Map<String, Object> load = Wire.map(reply, "load");
        String jid = Wire.string(load, "jid");
        assertThat(jid).matches("[0-9]{20}");
        assertThat(load).containsEntry("tag", "salt/run/" + jid).containsEntry("fun", "demo.echo")
                .containsEntry("return", "HI").containsEntry("success", true);
    }

    @Test
    void firesTheRunsNewAndRetEvents() {
        Map<String, Object> load = Wire.map(call("demo.echo", List.of("hi"), Map.of(), secret), "load");
        String jid = Wire.string(load, "jid");

        assertThat(events.tags()).containsExactly("salt/run/" + jid + "/new", "salt/run/" + jid + "/ret");
        EventFrame created = events.all().get(0);
        assertThat(created.data()).containsEntry("fun", "runner.demo.echo").containsEntry("fun_args", List.of("hi"))
                .containsEntry("jid", jid).containsEntry("user", "tester");
        EventFrame done = events.all().get(1);
        assertThat(done.data()).containsEntry("return", "hi").containsEntry("success", true)
                .containsEntry("fun", "runner.demo.echo");
    }

    @Test
    void docRunnerGivesEveryFunctionsDocstringInSaltsShape() {
        Map<String, Object> load = Wire.map(call("doc.runner", List.of(), Map.of(), secret), "load");

        assertThat(load).containsEntry("success", true);
        Map<String, Object> docs = Wire.map(load, "return");
        assertThat(docs).containsOnlyKeys("demo.bug", "demo.echo", "demo.refuse", "demo.wait", "doc.runner");
        assertThat(docs.get("demo.echo")).isEqualTo("demo.echo(text, loud=False)\n\nReturn the text, upper case when loud.\n\n"
                + "CLI Example:\n\n    jsalt-run demo.echo");
        assertThat(docs.get("demo.refuse")).isEqualTo("demo.refuse()\n\nCLI Example:\n\n    jsalt-run demo.refuse");
        assertThat(Wire.map(call("doc.runner", List.of("demo.echo"), Map.of(), secret), "load"))
                .as("Salt's doc.runner takes no argument either").containsEntry("success", false);
    }

    @Test
    void anUnknownFunctionIsNotAvailableInSaltsWords() {
        Map<String, Object> load = Wire.map(call("demo.nope", List.of(), Map.of(), secret), "load");

        assertThat(load).containsEntry("return", "'demo.nope' is not available.").containsEntry("success", false);
    }

    @Test
    void badArgumentsAreRefusedNamingTheSignature() {
        Map<String, Object> load = Wire.map(call("demo.echo", List.of(), Map.of("colour", "red"), secret), "load");

        assertThat(load).containsEntry("success", false).containsEntry("return",
                "demo.echo(text, loud=False): The following keyword arguments are not valid: colour=red");
        assertThat(Wire.map(call("demo.echo", List.of(), Map.of(), secret), "load"))
                .containsEntry("return", "demo.echo(text, loud=False): missing required argument 'text'");
    }

    @Test
    void aFailingFunctionAnswersItsMessageWithSuccessFalse() {
        assertThat(Wire.map(call("demo.refuse", List.of(), Map.of(), secret), "load"))
                .containsEntry("return", "no can do").containsEntry("success", false);
        assertThat(Wire.map(call("demo.bug", List.of(), Map.of(), secret), "load"))
                .containsEntry("success", false)
                .hasEntrySatisfying("return", r -> assertThat((String) r).contains("demo.bug", "a bug"));
        assertThat(events.all().stream().filter(e -> e.tag().endsWith("/ret")).map(e -> e.data().get("success")))
                .containsExactly(false, false);
    }

    @Test
    void aWrongClientKeyIsAnAuthenticationErrorAndRunsNothing() {
        Map<String, Object> reply = call("demo.echo", List.of("hi"), Map.of(), "not-the-key");

        assertThat(Wire.map(reply, "load")).containsEntry("error", "Authentication error occurred.");
        assertThat(events.all()).isEmpty();
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "runner");
        load.put("fun", "demo.echo");
        assertThat(Wire.map(Wire.asMap(SaltPack.unpack(command.handle(load))), "load"))
                .containsEntry("error", "Authentication error occurred.");
    }

    @Test
    void aLoadWithoutAFunctionNameIsAWireError() {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "runner");
        load.put("key", secret);
        load.put("arg", List.of());

        assertThatThrownBy(() -> command.handle(load)).isInstanceOf(WireException.class);
        assertThat(events.all()).isEmpty();
    }

    @Test
    void anAsynchronousCallIsAnsweredWithItsJidAndTagBeforeItFinishesAndItsReturnIsAnEvent() {
        Map<String, Object> load = Wire.map(callAsync("demo.wait"), "load");
        String jid = Wire.string(load, "jid");
        assertThat(load).containsOnlyKeys("tag", "jid").containsEntry("tag", "salt/run/" + jid);
        assertThat(events.tags()).containsExactly("salt/run/" + jid + "/new");

        release.countDown();
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() -> events.tags().size() == 2);
        assertThat(events.tags()).containsExactly("salt/run/" + jid + "/new", "salt/run/" + jid + "/ret");
        assertThat(events.all().get(1).data()).containsEntry("return", "released").containsEntry("success", true);
    }

    @Test
    void asynchronousCallsBeyondTheQueueAreRefusedAndSayWhyOnTheBus() {
        for (int i = 0; i < RunnerCommand.ASYNC_THREADS + RunnerCommand.ASYNC_QUEUE; i++) {
            assertThat(Wire.map(callAsync("demo.wait"), "load")).containsKey("jid");
        }
        Map<String, Object> refused = Wire.map(callAsync("demo.wait"), "load");
        assertThat(refused).containsEntry("error", "too many asynchronous runner calls waiting: try again later");
        EventFrame last = events.all().get(events.all().size() - 1);
        assertThat(last.tag()).endsWith("/ret");
        assertThat(last.data()).containsEntry("success", false);
    }

    @Test
    void aRefusedCallsArgumentsAreNotKeptInMemory() {
        Map<String, Object> junk = Map.of("junk", "x".repeat(1_000_000));
        String unknown = Wire.string(Wire.map(call("no.such_function", List.of(), junk, secret), "load"), "jid");
        // 10,000 such calls (RunnerCalls.CAPACITY) kept 10 GB of junk: the bound was by count, not by bytes
        assertThat(calls.find(unknown)).isEmpty();
        String unbound = Wire.string(Wire.map(call("demo.echo", List.of("hi"), junk, secret), "load"), "jid");
        assertThat(calls.find(unbound)).as("arguments that do not bind: refused too").isEmpty();
    }

    @Test
    void anAcceptedCallIsRecordedWithItsArgumentsOnlyWhileTheyAreSmall() {
        String small = Wire.string(Wire.map(call("demo.echo", List.of("hi"), Map.of("loud", true), secret), "load"), "jid");
        assertThat(calls.find(small)).hasValueSatisfying(c -> {
            assertThat(c.user()).isEqualTo("tester");
            assertThat(c.fun()).isEqualTo("demo.echo");
            assertThat(c.arg()).containsExactly("hi");
            assertThat(c.kwarg()).containsEntry("loud", true);
        });
        String big = Wire.string(Wire.map(call("demo.echo", List.of("x".repeat(RunnerCalls.MAX_ARGS_BYTES)), Map.of(), secret), "load"), "jid");
        assertThat(calls.find(big)).hasValueSatisfying(c -> {
            assertThat(c.fun()).isEqualTo("demo.echo");
            assertThat(c.argsKept()).isFalse();
            assertThat(c.arg()).isNull();
        });
    }

    private Map<String, Object> callAsync(String fun) {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "runner");
        load.put("fun", fun);
        load.put("key", secret);
        load.put("user", "tester");
        load.put("asynchronous", true);
        return Wire.asMap(SaltPack.unpack(command.handle(Wire.asMap(SaltPack.unpack(SaltPack.pack(load))))));
    }

    private Map<String, Object> call(String fun, List<Object> arg, Map<String, Object> kwarg, String key) {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "runner");
        load.put("fun", fun);
        load.put("arg", arg);
        load.put("kwarg", kwarg);
        load.put("key", key);
        load.put("user", "tester");
        Map<String, Object> wire = Wire.asMap(SaltPack.unpack(SaltPack.pack(load)));
        return Wire.asMap(SaltPack.unpack(command.handle(wire)));
    }
}
