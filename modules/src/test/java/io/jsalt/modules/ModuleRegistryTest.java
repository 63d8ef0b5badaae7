package io.jsalt.modules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ModuleRegistryTest {

    private final ModuleContext context = SimpleModuleContext.builder().minionId("minion-1").build();
    private final ModuleRegistry registry = ModuleRegistry.builder(context).addModule(new SampleModule()).build();

    @Test
    void unknownFunctionGetsSaltsTextAndRetcode254() {
        CallResult result = registry.call("x.y", List.of());

        assertThat(result).isEqualTo(new CallResult("'x.y' is not available.", 254, false));
        assertThat(registry.call("sample.nope", List.of()).ret()).isEqualTo("'sample.nope' is not available.");
        assertThat(registry.call(null, null).retcode()).isEqualTo(254);
    }

    @Test
    void badCallShowsTheSignatureWithRetcode1() {
        CallResult result = registry.call("sample.typed", List.of());

        assertThat(result.retcode()).isEqualTo(1);
        assertThat(result.success()).isFalse();
        assertThat(result.ret()).isEqualTo("ERROR: Passed invalid arguments to sample.typed: missing required "
                + "argument 'count'; signature: sample.typed(count, flag=False, ratio=1.5, name=None)");
    }

    @Test
    void exceptionBecomesErrorTextAndTheRegistryKeepsWorking() {
        CallResult failed = registry.call("sample.boom", List.of("disk on fire"));

        assertThat(failed).isEqualTo(CallResult.failed("ERROR: disk on fire", 1));
        assertThat(registry.call("sample.who", List.of())).isEqualTo(CallResult.ok("minion-1"));
    }

    @Test
    void exceptionWithoutMessageIsNamedByItsClass() {
        assertThat(registry.call("sample.npe", List.of()))
                .isEqualTo(CallResult.failed("ERROR: java.lang.NullPointerException", 1));
    }

    @Test
    void stackOverflowInAFunctionIsContained() {
        CallResult result = registry.call("sample.deep", List.of());

        assertThat(result.retcode()).isEqualTo(1);
        assertThat((String) result.ret()).startsWith("ERROR: java.lang.StackOverflowError");
        assertThat(registry.call("sample.who", List.of()).success()).isTrue();
    }

    @Test
    void voidFunctionReturnsNone() {
        assertThat(registry.call("sample.nothing", List.of())).isEqualTo(CallResult.ok(null));
    }

    @Test
    void functionNamesAreSortedFullNames() {
        assertThat(registry.functionNames()).containsExactly("sample.boom", "sample.collect", "sample.deep",
                "sample.list", "sample.longs", "sample.nothing", "sample.npe", "sample.options", "sample.typed",
                "sample.who");
        assertThat(registry.moduleNames()).containsExactly("sample");
        assertThatThrownBy(() -> registry.functionNames().add("x.y")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void docAndSignatureAreLookedUpByFullName() {
        assertThat(registry.doc("sample.who")).contains("The minion id, from the injected context.");
        assertThat(registry.doc("sample.missing")).isEmpty();
        assertThat(registry.doc(null)).isEmpty();
        assertThat(registry.signature("sample.collect")).contains("sample.collect(first, *rest, sep=',', **extra)");
        assertThat(registry.moduleDoc("sample")).contains("Functions that exercise argument binding.");
    }

    @Test
    void builtInDiscoversTheBuiltInModulesThroughServiceLoader() {
        ModuleRegistry builtIn = ModuleRegistry.builtIn(context);

        assertThat(builtIn.moduleNames()).contains("cmd", "grains", "sys", "test");
        assertThat(builtIn.functionNames()).contains("test.ping", "cmd.run", "grains.items", "sys.doc");
        assertThat(builtIn.call("test.ping", List.of())).isEqualTo(CallResult.ok(true));
    }

    @Test
    void aFunctionNameTakenTwiceIsRefused() {
        ModuleRegistry.Builder builder = ModuleRegistry.builder(context).addModule(new SampleModule());

        assertThatThrownBy(() -> builder.addModule(new SampleModule()))
                .isInstanceOf(ModuleDefinitionException.class)
                .hasMessageContaining("sample.boom is already defined");
    }

    @SaltModule(name = "sample")
    public static final class MoreSample implements ExecutionModule {
        @SaltFunction
        public String extra(@Arg("x") String x) {
            return x;
        }
    }

    @Test
    void aModuleMaySpanSeveralClasses() {
        ModuleRegistry split = ModuleRegistry.builder(context).addModule(new SampleModule())
                .addModule(new MoreSample()).build();

        assertThat(split.call("sample.extra", List.of("x"))).isEqualTo(CallResult.ok("x"));
        assertThat(split.moduleDoc("sample")).contains("Functions that exercise argument binding.");
    }

    @Test
    void concurrentCallsDoNotInterfere() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<CallResult>> futures = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                long n = i;
                futures.add(pool.submit(() -> registry.call("sample.collect",
                        List.of("f" + n, n, Map.of("__kwarg__", true, "k", n)))));
            }
            for (int i = 0; i < futures.size(); i++) {
                CallResult result = futures.get(i).get(30, TimeUnit.SECONDS);
                assertThat(result.ret()).isEqualTo(Map.of("first", "f" + i, "rest", List.of((long) i), "sep", ",",
                        "extra", Map.of("k", (long) i)));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void interruptedFunctionKeepsTheInterruptFlag() {
        ModuleRegistry builtIn = ModuleRegistry.builtIn(context);
        Thread.currentThread().interrupt();
        try {
            CallResult result = builtIn.call("test.sleep", List.of(30));

            assertThat(result.retcode()).isEqualTo(1);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    /** Returns Salt-style result dicts. */
    @SaltModule(name = "verdict")
    public static final class Verdict implements ExecutionModule {
        @SaltFunction
        public Map<String, Object> of(@Arg("key") String key, @Arg(value = "value", defaultValue = Arg.NULL) Object value) {
            Map<String, Object> ret = new java.util.LinkedHashMap<>();
            ret.put(key, value);
            ret.put("comment", "c");
            return ret;
        }
    }

    @Test
    void aReturnDictWithAFalseResultOrSuccessFailsTheJobAsSaltsMinionDoes() {
        ModuleRegistry verdicts = ModuleRegistry.builder(context).addModule(new Verdict()).build();

        assertThat(verdicts.call("verdict.of", List.of("result", false)).retcode()).isEqualTo(1);
        assertThat(verdicts.call("verdict.of", List.of("success", false)).success()).isFalse();
        assertThat(verdicts.call("verdict.of", List.of("result")).retcode()).isEqualTo(1);
        assertThat(verdicts.call("verdict.of", List.of("result", "")).retcode()).isEqualTo(1);
        assertThat(verdicts.call("verdict.of", List.of("result", true))).isEqualTo(CallResult.ok(
                Map.of("result", true, "comment", "c")));
        assertThat(verdicts.call("verdict.of", List.of("other", false)).success()).isTrue();
    }
}
