package io.jsalt.modules.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GlobTest {

    @Test
    void matchesLikeFnmatch() {
        assertThat(Glob.of("test.*").matches("test.ping")).isTrue();
        assertThat(Glob.of("test.*").matches("tests.ping")).isFalse();
        assertThat(Glob.of("cmd.run_?ll").matches("cmd.run_all")).isTrue();
        assertThat(Glob.of("[cg]*").matches("grains.get")).isTrue();
        assertThat(Glob.of("[!cg]*").matches("grains.get")).isFalse();
        assertThat(Glob.of("a.b").matches("axb")).isFalse();
        assertThat(Glob.of("[").matches("[")).isTrue();
        assertThat(Glob.of("[a&&b]").matches("&")).isTrue();
    }
}
