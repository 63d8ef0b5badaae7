package io.jsalt.cli.call;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** salt-call's retcode rules: the function's own, or 1 for a map that says result/success False. */
class LocalCallTest {
    @SaltModule(name = "state_like")
    public static final class StateLike implements ExecutionModule {
        @SaltFunction(doc = "A state-style answer.")
        public Map<String, Object> apply(@Arg("outcome") String outcome) {
            return switch (outcome) {
                case "failed" -> Map.of("result", false, "comment", "it failed");
                case "unsuccessful" -> Map.of("success", false);
                default -> Map.of("result", true);
            };
        }
    }

    private final ModuleRegistry registry = ModuleRegistry.builder(SimpleModuleContext.builder().minionId("m1").build())
            .addDiscovered(ModuleRegistry.class.getClassLoader()).addModule(new StateLike()).build();

    @AfterEach
    void close() {
        registry.close();
    }

    @Test
    void aMapWithResultOrSuccessFalseCountsAsFailedWithRetcode1() {
        assertThat(LocalCall.run(registry, "state_like.apply", List.of("failed")).retcode()).isEqualTo(1);
        assertThat(LocalCall.run(registry, "state_like.apply", List.of("unsuccessful")).retcode()).isEqualTo(1);
        assertThat(LocalCall.run(registry, "state_like.apply", List.of("fine")).retcode()).isZero();
    }

    @Test
    void theFunctionsOwnRetcodeIsKept() {
        LocalCall.Outcome o = LocalCall.run(registry, "test.retcode", List.of(7L));

        assertThat(o.retcode()).isEqualTo(7);
        assertThat(o.success()).isFalse();
    }

    @Test
    void aFunctionThatThrowsIsAFailureWithItsMessage() {
        LocalCall.Outcome o = LocalCall.run(registry, "test.exception", List.of("broken"));

        assertThat(o.retcode()).isNotZero();
        assertThat(String.valueOf(o.ret())).contains("broken");
    }
}
