package io.jsalt.modules.binding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.modules.ModuleContext;
import io.jsalt.modules.SampleModule;
import io.jsalt.modules.SimpleModuleContext;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FunctionBinderTest {

    private final Map<String, ModuleFunction> functions = new LinkedHashMap<>();
    private final ModuleContext context = SimpleModuleContext.builder().minionId("m").build();

    FunctionBinderTest() {
        ModuleIntrospector.describe(new SampleModule()).functions().forEach(f -> functions.put(f.name(), f));
    }

    private List<Object> bind(String function, Object... wire) throws InvalidArgumentsException {
        return Arrays.asList(FunctionBinder.bind(functions.get(function), Arrays.asList(wire), context, null));
    }

    private static Map<String, Object> kwargs(Object... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("__kwarg__", true);
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], pairs[i + 1]);
        }
        return map;
    }

    @Test
    void bindsPositionalValuesInOrder() throws Exception {
        assertThat(bind("typed", 3L, true, 2.5d, "n")).containsExactly(3, true, 2.5d, "n");
    }

    @Test
    void fillsDefaultsForMissingOptionalArguments() throws Exception {
        assertThat(bind("typed", 3L)).containsExactly(3, false, 1.5d, null);
    }

    @Test
    void bindsKeywordArgumentsAndDropsTheKwargMarker() throws Exception {
        assertThat(bind("typed", kwargs("name", "x", "count", 4L))).containsExactly(4, false, 1.5d, "x");
    }

    @Test
    void mixesPositionalAndKeywordArguments() throws Exception {
        assertThat(bind("typed", 1L, kwargs("ratio", 0.5d))).containsExactly(1, false, 0.5d, null);
    }

    @Test
    void coercesTextToTheDeclaredTypes() throws Exception {
        assertThat(bind("typed", "5", "yes", "0.25")).containsExactly(5, true, 0.25d, null);
        assertThat(bind("typed", "5", "off")).containsExactly(5, false, 1.5d, null);
        assertThat(bind("typed", 5.0d, 1L)).containsExactly(5, true, 1.5d, null);
        assertThat(bind("typed", 7L, "ON", 2L, 42L)).containsExactly(7, true, 2.0d, "42");
    }

    @Test
    void readsKeyValueStringsAsKeywordsForNamesTheFunctionTakes() throws Exception {
        assertThat(bind("typed", "count=5", "flag=True")).containsExactly(5, true, 1.5d, null);
        // a name the function does not take stays a positional string, unlike Salt which would refuse it
        assertThat(bind("typed", 1L, "true", 1L, "colour=red")).containsExactly(1, true, 1.0d, "colour=red");
    }

    @Test
    void refusesTooManyPositionalArguments() {
        assertThatThrownBy(() -> bind("typed", 1L, true, 1.0d, "n", "extra"))
                .isInstanceOf(InvalidArgumentsException.class)
                .hasMessage("takes 4 positional arguments but 5 were given");
        assertThatThrownBy(() -> bind("who", "x"))
                .hasMessage("takes 0 positional arguments but 1 was given");
    }

    @Test
    void refusesAMissingRequiredArgument() {
        assertThatThrownBy(() -> bind("typed", kwargs("flag", true)))
                .isInstanceOf(InvalidArgumentsException.class)
                .hasMessage("missing required argument 'count'");
    }

    @Test
    void refusesUnknownKeywordsWithSaltsWording() {
        assertThatThrownBy(() -> bind("typed", 1L, kwargs("colour", "red", "size", 2L)))
                .isInstanceOf(InvalidArgumentsException.class)
                .hasMessage("The following keyword arguments are not valid: colour=red, size=2");
    }

    @Test
    void refusesAnArgumentGivenTwice() {
        assertThatThrownBy(() -> bind("typed", 1L, kwargs("count", 2L)))
                .hasMessage("got multiple values for argument 'count'");
    }

    @Test
    void refusesValuesThatCannotBeCoerced() {
        assertThatThrownBy(() -> bind("typed", "five"))
                .hasMessage("argument 'count' expects an integer, got 'five'");
        assertThatThrownBy(() -> bind("typed", 1L, "maybe"))
                .hasMessageStartingWith("argument 'flag' expects a boolean");
        assertThatThrownBy(() -> bind("typed", 2.5d))
                .hasMessage("argument 'count' expects an integer, got 2.5");
        assertThatThrownBy(() -> bind("typed", 1L << 40))
                .hasMessageContaining("out of range");
        assertThatThrownBy(() -> bind("options", "not a map"))
                .hasMessage("argument 'opts' expects a map, got 'not a map'");
        assertThatThrownBy(() -> bind("typed", (Object) null))
                .hasMessage("argument 'count' expects an integer, got None");
    }

    @Test
    void dropsSaltPublicationKeywordsForFunctionsWithoutKwargs() throws Exception {
        assertThat(bind("typed", 1L, kwargs("__pub_jid", "2024", "__pub_fun", "sample.typed")))
                .containsExactly(1, false, 1.5d, null);
    }

    @Test
    void catchAllsTakeTheLeftovers() throws Exception {
        List<Object> bound = bind("collect", "a", 2L, "three", kwargs("sep", ";", "x", 1L, "__pub_jid", "j"));

        assertThat(bound).containsExactly("a", List.of(2L, "three"), ";", Map.of("x", 1L, "__pub_jid", "j"));
    }

    @Test
    void argumentsAfterVarArgsAreKeywordOnly() throws Exception {
        assertThat(bind("collect", "a", "b", "c")).containsExactly("a", List.of("b", "c"), ",", Map.of());
    }

    @Test
    void keyValueStringsGoToKwargsWhenTheFunctionHasThem() throws Exception {
        assertThat(bind("collect", "a", "two=2", "echo a=b")).containsExactly("a", List.of("echo a=b"), ",",
                Map.of("two", 2L));
    }

    @Test
    void listParametersAcceptListsCommaSeparatedTextAndSingleValues() throws Exception {
        assertThat(bind("list", List.of(1L, 2L))).containsExactly(List.of(1L, 2L));
        assertThat(bind("list", "a, b,c")).containsExactly(List.of("a", "b", "c"));
        assertThat(bind("list", 5L)).containsExactly(List.of(5L));
    }

    @Test
    void boxedParametersTakeNoneAndPrimitivesDoNot() throws Exception {
        assertThat(bind("longs", "9", kwargs("b", null))).containsExactly(9L, null);
        assertThat(bind("longs", 1L, "2")).containsExactly(1L, 2L);
    }

    @Test
    void contextIsInjectedNotBound() throws Exception {
        assertThat(bind("who")).containsExactly(context);
    }

    @Test
    void mapWithoutTheKwargMarkerIsAPositionalValue() throws Exception {
        Map<String, Object> plain = Map.of("a", 1L);

        assertThat(bind("options", plain)).containsExactly(plain);
        assertThat(bind("options", kwargs("opts", plain))).containsExactly(plain);
    }

    @Test
    void signaturesReadLikePython() {
        assertThat(functions.get("typed").signature())
                .isEqualTo("sample.typed(count, flag=False, ratio=1.5, name=None)");
        assertThat(functions.get("collect").signature()).isEqualTo("sample.collect(first, *rest, sep=',', **extra)");
        assertThat(functions.get("who").signature()).isEqualTo("sample.who()");
        assertThat(functions.get("list").fullName()).isEqualTo("sample.list");
    }
}
