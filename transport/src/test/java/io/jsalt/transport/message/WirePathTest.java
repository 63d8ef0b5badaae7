package io.jsalt.transport.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.transport.codec.WireException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The one form a file path on the wire must have, on the master and on the minion alike. */
class WirePathTest {
    @ParameterizedTest
    @ValueSource(strings = {"../secret/passwd", "a/../../b", "..", ".", "./a", "a/./b", "a//b", "a/", "/etc/passwd",
            "//etc/passwd", "a\\b", "..\\secret", "a\u0000b", ""})
    void refusesPathsThatAreNotPlainRelativeNames(String path) {
        assertThatThrownBy(() -> WirePath.check(path)).isInstanceOf(UnsafePathException.class)
                .isInstanceOf(WireException.class);
        assertThat(WirePath.isValid(path)).isFalse();
    }

    @Test
    void refusesANullAndAnOverlongPath() {
        assertThatThrownBy(() -> WirePath.check(null)).isInstanceOf(UnsafePathException.class);
        assertThatThrownBy(() -> WirePath.check("a/".repeat(WirePath.MAX_LENGTH) + "b"))
                .isInstanceOf(UnsafePathException.class).hasMessageContaining("longer than");
    }

    @Test
    void takesEncodedFormsAndHiddenNamesLiterally() {
        assertThat(WirePath.check("%2e%2e/%2e%2e/x")).isEqualTo("%2e%2e/%2e%2e/x");
        assertThat(WirePath.segments("_modules/.hidden/a.jar")).containsExactly("_modules", ".hidden", "a.jar");
    }

    @Test
    void aRefusalShowsThePathBoundedAndPrintable() {
        assertThatThrownBy(() -> WirePath.check("/x\r\ninjected" + "y".repeat(1000)))
                .hasMessageNotContaining("\n").hasMessageContaining("/x??injected")
                .satisfies(e -> assertThat(e.getMessage().length()).isLessThan(300));
    }
}
