package io.jsalt.states.builtin.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.states.StatesException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** source_hash as Salt's get_source_sum and extract_hash read it. */
class SourceHashTest {
    private static final String SHA = "c".repeat(64);
    private static final SourceHash.HashFiles NONE = url -> Optional.empty();

    @Test
    void aHashIsTypedByItsPrefixOrItsLength() {
        assertThat(SourceHash.parse("sha256=" + SHA.toUpperCase(), "/f", "/src", null, NONE))
                .isEqualTo(new SourceHash("sha256", SHA));
        assertThat(SourceHash.parse("d".repeat(32), "/f", "/src", null, NONE)).isEqualTo(new SourceHash("md5", "d".repeat(32)));
        assertThat(SourceHash.parse("e".repeat(128), "/f", "/src", null, NONE).type()).isEqualTo("sha512");
    }

    @Test
    void malformedHashesAreRefusedWithSaltsWords() {
        assertThatThrownBy(() -> SourceHash.parse("xyz", "/f", "/src", null, NONE)).isInstanceOf(StatesException.class)
                .hasMessageStartingWith("Source hash xyz format is invalid.");
        assertThatThrownBy(() -> SourceHash.parse("sha999=" + SHA, "/f", "/src", null, NONE))
                .hasMessageStartingWith("Invalid hash type 'sha999'. Supported hash types are: sha512, sha384, sha256");
        assertThatThrownBy(() -> SourceHash.parse("md5=" + SHA, "/f", "/src", null, NONE))
                .hasMessage("Invalid length (64) for hash type 'md5'. Either remove the hash type and simply use '" + SHA
                        + "' as the source_hash, or change the hash type to 'sha256'");
        assertThatThrownBy(() -> SourceHash.parse("https://example.com/hashes", "/f", "/src", null, NONE))
                .hasMessageStartingWith("Source hash https://example.com/hashes format is invalid.");
    }

    @Test
    void aHashFileGivesTheLineOfTheSourceHashNameTheFileTheSourceOrElseTheFirstHash() {
        String file = "a".repeat(64) + "  ./dir1/foo.txt\n" + "b".repeat(64) + "  ./dir2/foo.txt\n"
                + "c".repeat(40) + " *app.tar.gz\n" + "d".repeat(64) + "  /srv/managed.conf\n";
        SourceHash.HashFiles files = url -> Optional.of(file.getBytes(StandardCharsets.UTF_8));
        assertThat(SourceHash.parse("salt://hashes", "/tmp/foo.txt", "/src/x", "./dir2/foo.txt", files).hsum())
                .isEqualTo("b".repeat(64));
        assertThat(SourceHash.parse("salt://hashes", "/etc/managed.conf", "/src/x", null, files).hsum())
                .isEqualTo("d".repeat(64));
        assertThat(SourceHash.parse("/local/hashes", "/opt/x.tgz", "https://h/app.tar.gz", null, files))
                .isEqualTo(new SourceHash("sha1", "c".repeat(40)));
        assertThat(SourceHash.parse("file:///hashes", "/opt/none", "/src/none", null, files).hsum())
                .isEqualTo("a".repeat(64));
        assertThatThrownBy(() -> SourceHash.parse("salt://hashes", "/f", "/s", null, NONE))
                .hasMessage("Source hash file salt://hashes not found");
    }
}
