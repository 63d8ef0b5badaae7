package io.jsalt.modules.binding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.modules.ModuleDefinitionException;
import io.jsalt.modules.SampleModule;
import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.KwArgs;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.api.VarArgs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModuleIntrospectorTest {

    public static final class Unannotated implements ExecutionModule {
        @SaltFunction
        public boolean f() {
            return true;
        }
    }

    @SaltModule(name = "m")
    public static final class UnnamedParameter implements ExecutionModule {
        @SaltFunction
        public String f(String x) {
            return x;
        }
    }

    @SaltModule(name = "m")
    public static final class UnsupportedType implements ExecutionModule {
        @SaltFunction
        public String f(@Arg("x") StringBuilder x) {
            return x.toString();
        }
    }

    @SaltModule(name = "m")
    public static final class BadDefault implements ExecutionModule {
        @SaltFunction
        public int f(@Arg(value = "x", defaultValue = "ten") int x) {
            return x;
        }
    }

    @SaltModule(name = "m")
    public static final class RequiredAfterOptional implements ExecutionModule {
        @SaltFunction
        public int f(@Arg(value = "x", defaultValue = "1") int x, @Arg("y") int y) {
            return x + y;
        }
    }

    @SaltModule(name = "m")
    public static final class KwArgsNotLast implements ExecutionModule {
        @SaltFunction
        public int f(@KwArgs Map<String, Object> kw, @Arg("y") int y) {
            return y;
        }
    }

    @SaltModule(name = "m")
    public static final class DuplicateFunction implements ExecutionModule {
        @SaltFunction(name = "same")
        public int a() {
            return 1;
        }

        @SaltFunction(name = "same")
        public int b() {
            return 2;
        }
    }

    @SaltModule(name = "bad-name")
    public static final class BadModuleName implements ExecutionModule {
        @SaltFunction
        public int a() {
            return 1;
        }
    }

    @SaltModule(name = "m")
    public static final class KeywordOnlyRequired implements ExecutionModule {
        @SaltFunction
        public List<Object> f(@VarArgs List<Object> args, @Arg("mode") String mode) {
            return args;
        }
    }

    @Test
    void describesEveryAnnotatedFunction() {
        ModuleDefinition definition = ModuleIntrospector.describe(new SampleModule());

        assertThat(definition.name()).isEqualTo("sample");
        assertThat(definition.functions()).extracting(ModuleFunction::name)
                .containsExactlyInAnyOrder("typed", "collect", "list", "options", "longs", "who", "boom", "npe",
                        "deep", "nothing");
    }

    @Test
    void refusesAuthoringMistakesAtLoadTime() {
        assertThatThrownBy(() -> ModuleIntrospector.describe(new Unannotated()))
                .isInstanceOf(ModuleDefinitionException.class).hasMessageContaining("no @SaltModule");
        assertThatThrownBy(() -> ModuleIntrospector.describe(new UnnamedParameter()))
                .hasMessageContaining("m.f, parameter 0: needs @Arg, @VarArgs or @KwArgs");
        assertThatThrownBy(() -> ModuleIntrospector.describe(new UnsupportedType()))
                .hasMessageContaining("cannot be bound from the wire");
        assertThatThrownBy(() -> ModuleIntrospector.describe(new BadDefault()))
                .hasMessageContaining("bad default");
        assertThatThrownBy(() -> ModuleIntrospector.describe(new RequiredAfterOptional()))
                .hasMessageContaining("required argument 'y' follows an optional one");
        assertThatThrownBy(() -> ModuleIntrospector.describe(new KwArgsNotLast()))
                .hasMessageContaining("may follow @KwArgs");
        assertThatThrownBy(() -> ModuleIntrospector.describe(new DuplicateFunction()))
                .hasMessageContaining("a second function named 'm.same'");
        assertThatThrownBy(() -> ModuleIntrospector.describe(new BadModuleName()))
                .hasMessageContaining("is not an identifier");
    }

    @Test
    void aRequiredKeywordOnlyArgumentMustBeGivenByName() throws Exception {
        ModuleFunction function = ModuleIntrospector.describe(new KeywordOnlyRequired()).functions().get(0);

        assertThat(function.signature()).isEqualTo("m.f(*args, mode)");
        assertThatThrownBy(() -> FunctionBinder.bind(function, List.of("a", "b"), null, null))
                .hasMessage("missing required argument 'mode'");
        assertThat(FunctionBinder.bind(function, List.of("a", Map.of("__kwarg__", true, "mode", "x")), null, null))
                .containsExactly(List.of("a"), "x");
    }
}
