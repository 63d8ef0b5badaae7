package io.jsalt.master.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientKeyTest {
    @TempDir
    Path cachedir;

    @Test
    void writesTheKeyToADotFileReadableByTheOwnerOnly() throws IOException {
        ClientKey.create(cachedir, "root");

        Path file = cachedir.resolve(".root_key");
        assertThat(ClientKey.file(cachedir, "root")).isEqualTo(file);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void createsTheCacheFolderWhenMissing() throws IOException {
        Path deeper = cachedir.resolve("var/cache/jsalt/master");
        ClientKey key = ClientKey.create(deeper, "salt");
        assertThat(key.matches(ClientKey.read(deeper, "salt"))).isTrue();
    }

    @Test
    void matchesOnlyTheSecretInTheFile() throws IOException {
        ClientKey key = ClientKey.create(cachedir, "root");
        String secret = ClientKey.read(cachedir, "root");

        assertThat(secret).hasSizeGreaterThanOrEqualTo(64);
        assertThat(key.matches(secret)).isTrue();
        assertThat(key.matches(secret + " ")).isFalse();
        assertThat(key.matches(secret.substring(1))).isFalse();
        assertThat(key.matches("")).isFalse();
        assertThat(key.matches(null)).isFalse();
        assertThat(key.matches(secret.getBytes())).isFalse();
        assertThat(key.matches(42L)).isFalse();
    }

    @Test
    void aNewKeyReplacesTheOldOneAndLeavesNoTemporaryFile() throws IOException {
        ClientKey first = ClientKey.create(cachedir, "root");
        String firstSecret = ClientKey.read(cachedir, "root");

        ClientKey second = ClientKey.create(cachedir, "root");
        String secondSecret = ClientKey.read(cachedir, "root");

        assertThat(secondSecret).isNotEqualTo(firstSecret);
        assertThat(second.matches(firstSecret)).isFalse();
        assertThat(first.matches(secondSecret)).isFalse();
        try (Stream<Path> files = Files.list(cachedir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly(".root_key");
        }
    }
}
