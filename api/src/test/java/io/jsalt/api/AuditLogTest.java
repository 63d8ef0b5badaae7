package io.jsalt.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AuditLogTest {
    @Test
    void aNewlineInARequestedValueCannotForgeASecondLine() {
        assertThat(AuditLog.oneLine("web*\nuser=root outcome=ok")).isEqualTo("web*\\nuser=root outcome=ok").doesNotContain("\n");
        assertThat(AuditLog.oneLine("a\r\\b")).isEqualTo("a\\r\\\\b");
    }

    @Test
    void longValuesAreCut() {
        assertThat(AuditLog.oneLine("x".repeat(500))).hasSize(203).endsWith("...");
        assertThat(AuditLog.oneLine(null)).isNull();
    }
}
