package io.jsalt.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RootDirTest {
    private static final Path SANDBOX = Path.of("/tmp/sb");

    @Test
    void withRootSlashAnAbsolutePathIsKeptAsIs() {
        assertThat(RootDir.resolve(Path.of("/"), "/etc/jsalt/pki/master")).isEqualTo(Path.of("/etc/jsalt/pki/master"));
    }

    @Test
    void absolutePathOutsideTheRootIsPrefixedWithIt() {
        assertThat(RootDir.resolve(SANDBOX, "/etc/jsalt/pki/master"))
                .isEqualTo(Path.of("/tmp/sb/etc/jsalt/pki/master"));
    }

    @Test
    void relativePathIsResolvedAgainstTheRoot() {
        assertThat(RootDir.resolve(SANDBOX, "var/cache/jsalt")).isEqualTo(Path.of("/tmp/sb/var/cache/jsalt"));
        assertThat(RootDir.resolve(Path.of("/"), "var/cache/jsalt")).isEqualTo(Path.of("/var/cache/jsalt"));
    }

    @Test
    void pathAlreadyUnderTheRootIsUnchanged() {
        assertThat(RootDir.resolve(SANDBOX, "/tmp/sb/etc/jsalt/pki")).isEqualTo(Path.of("/tmp/sb/etc/jsalt/pki"));
        assertThat(RootDir.resolve(SANDBOX, "/tmp/sb")).isEqualTo(SANDBOX);
    }

    @Test
    void siblingWithTheRootAsNamePrefixIsNotUnderTheRoot() {
        assertThat(RootDir.resolve(SANDBOX, "/tmp/sbx/pki")).isEqualTo(Path.of("/tmp/sb/tmp/sbx/pki"));
    }

    @Test
    void resultIsNormalized() {
        assertThat(RootDir.resolve(SANDBOX, "/etc/./jsalt//pki/../pki/master"))
                .isEqualTo(Path.of("/tmp/sb/etc/jsalt/pki/master"));
        assertThat(RootDir.resolve(Path.of("/tmp/sb/../sb/"), "/etc")).isEqualTo(Path.of("/tmp/sb/etc"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"../etc/passwd", "/etc/../../x", "/tmp/sb/../other", "a/../../b", ".."})
    void dotDotThatClimbsOutOfTheRootIsRefused(String configured) {
        ConfigFile config = ConfigFile.of(Path.of("/etc/jsalt/master"), Map.of());
        assertThatThrownBy(() -> RootDir.resolve(config, "pki_dir", SANDBOX, configured))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("/etc/jsalt/master: pki_dir: expected a path that stays inside root_dir /tmp/sb, got \"")
                .satisfies(e -> assertThat(((ConfigException) e).key()).hasValue("pki_dir"));
    }

    @Test
    void dotDotThatStaysInsideTheRootIsAllowed() {
        assertThat(RootDir.resolve(SANDBOX, "/etc/jsalt/../jsalt/pki")).isEqualTo(Path.of("/tmp/sb/etc/jsalt/pki"));
        assertThat(RootDir.resolve(SANDBOX, "a/../b")).isEqualTo(Path.of("/tmp/sb/b"));
    }

    @Test
    void emptyOrNullBytePathIsRefused() {
        assertThatThrownBy(() -> RootDir.resolve(SANDBOX, "")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("expected a path");
        assertThatThrownBy(() -> RootDir.resolve(SANDBOX, "/etc/\0x")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("expected a valid path");
    }

    @Test
    void rootDirOfAConfigIsMadeAbsoluteAgainstTheCurrentDirectory() {
        ConfigFile config = ConfigFile.of(Path.of("m"), Map.of("root_dir", "sandbox/../sb"));
        assertThat(RootDir.of(config)).isEqualTo(Path.of("").toAbsolutePath().resolve("sb"));
        assertThat(RootDir.of(ConfigFile.of(Path.of("m"), Map.of()))).isEqualTo(Path.of("/"));
    }
}
