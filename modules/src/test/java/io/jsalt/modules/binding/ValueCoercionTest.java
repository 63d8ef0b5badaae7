package io.jsalt.modules.binding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ValueCoercionTest {

    @ParameterizedTest(name = "\"{0}\" is {1}")
    @CsvSource({"true,true", "True,true", "YES,true", "on,true", "1,true", "false,false", "No,false", "OFF,false",
            "0,false", "' yes ',true"})
    void booleansFollowYamlTruthiness(String text, boolean expected) throws Exception {
        assertThat(ValueCoercion.coerce(text, boolean.class, "b")).isEqualTo(expected);
    }

    @Test
    void numbersAcceptTextAndOtherNumberTypes() throws Exception {
        assertThat(ValueCoercion.coerce(" 5 ", int.class, "n")).isEqualTo(5);
        assertThat(ValueCoercion.coerce(5, Long.class, "n")).isEqualTo(5L);
        assertThat(ValueCoercion.coerce(3L, double.class, "n")).isEqualTo(3.0d);
        assertThat(ValueCoercion.coerce("2.5", Double.class, "n")).isEqualTo(2.5d);
        assertThatThrownBy(() -> ValueCoercion.coerce("NaN", double.class, "n"))
                .hasMessage("argument 'n' expects a number, got 'NaN'");
        assertThatThrownBy(() -> ValueCoercion.coerce(true, int.class, "n"))
                .hasMessage("argument 'n' expects an integer, got true");
    }

    @Test
    void stringsAcceptScalarsButNotCollections() throws Exception {
        assertThat(ValueCoercion.coerce(true, String.class, "s")).isEqualTo("true");
        assertThat(ValueCoercion.coerce(1.5d, String.class, "s")).isEqualTo("1.5");
        assertThat(ValueCoercion.coerce("é".getBytes(StandardCharsets.UTF_8), String.class, "s")).isEqualTo("é");
        assertThatThrownBy(() -> ValueCoercion.coerce(List.of("a"), String.class, "s"))
                .hasMessage("argument 's' expects a string, got [a]");
    }

    @Test
    void objectParametersTakeValuesAsTheyArrive() throws Exception {
        Map<String, Object> map = Map.of("a", 1L);

        assertThat(ValueCoercion.coerce(map, Object.class, "o")).isSameAs(map);
    }

    @Test
    void longValuesAreCutInMessages() {
        assertThatThrownBy(() -> ValueCoercion.coerce("x".repeat(500), int.class, "n"))
                .hasMessageEndingWith("...").message().hasSizeLessThan(150);
    }
}
