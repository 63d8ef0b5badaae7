package io.jsalt.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EauthBackendOptionsTest {
    private static EauthBackendOptions read(Map<String, Object> values) {
        return EauthBackendOptions.read(ConfigFile.of(Path.of("master"), values));
    }

    @Test
    void saltsDefaultsWhenNothingIsSaid() {
        assertThat(read(Map.of())).isEqualTo(EauthBackendOptions.DEFAULTS);
        assertThat(EauthBackendOptions.DEFAULTS.pamService()).isEqualTo("login");
        assertThat(EauthBackendOptions.DEFAULTS.ldap().scope()).isEqualTo(2);
    }

    @Test
    void saltsTopLevelKeysAreRead() {
        EauthBackendOptions o = read(Map.of("auth.pam.service", "salt", "auth.ldap.server", "ldap.example.org", "auth.ldap.port", 636,
                "auth.ldap.tls", true, "auth.ldap.binddn", "cn=salt", "auth.ldap.bindpw", "s3cret", "auth.ldap.scope", 1,
                "auth.ldap.groupou", ""));
        assertThat(o.pamService()).isEqualTo("salt");
        assertThat(o.ldap().server()).isEqualTo("ldap.example.org");
        assertThat(o.ldap().port()).isEqualTo(636);
        assertThat(o.ldap().tls()).isTrue();
        assertThat(o.ldap().scope()).isEqualTo(1);
        assertThat(o.ldap().groupou()).isEmpty();
        assertThat(o.ldap().toString()).contains("ldaps://ldap.example.org:636").doesNotContain("s3cret");
    }

    @Test
    void whatJsaltWouldNotHonourIsRefusedWithTheKeysName() {
        assertThatThrownBy(() -> read(Map.of("auth.ldap.tls", true, "auth.ldap.starttls", true))).hasMessageContaining("auth.ldap.starttls");
        assertThatThrownBy(() -> read(Map.of("auth.ldap.no_verify", true))).hasMessageContaining("auth.ldap.no_verify");
        assertThatThrownBy(() -> read(Map.of("auth.ldap.activedirectory", true))).hasMessageContaining("auth.ldap.activedirectory");
        assertThatThrownBy(() -> read(Map.of("auth.ldap.freeipa", true))).hasMessageContaining("auth.ldap.freeipa");
        assertThatThrownBy(() -> read(Map.of("auth.ldap.scope", 3))).hasMessageContaining("auth.ldap.scope");
        assertThatThrownBy(() -> read(Map.of("auth.ldap.port", 0))).hasMessageContaining("auth.ldap.port");
    }
}
