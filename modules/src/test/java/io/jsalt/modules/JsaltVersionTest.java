package io.jsalt.modules;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JsaltVersionTest {

    @Test
    void versionComesFromTheBuildNotThePlaceholder() {
        assertThat(JsaltVersion.current()).doesNotContain("${").matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
    }
}
