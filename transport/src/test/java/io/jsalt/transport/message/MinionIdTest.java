package io.jsalt.transport.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.transport.codec.WireException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Minion ids name key files: the one check between a peer's string and a path. */
class MinionIdTest {

    @TempDir
    Path pki;

    @ParameterizedTest
    @ValueSource(strings = {"vector-minion", "web1", "web1.example.com", "db_2", "user@host", "A-Z.a-z_0-9@", "x", "a..b", "trailing.", "-dash"})
    void acceptsIdsMadeOfTheAllowedCharacters(String id) {
        assertThat(MinionId.isValid(id)).isTrue();
        assertThat(MinionId.require(id)).isEqualTo(id);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "..", "...", ".hidden", ".tmp-1.key", "a/b", "../etc", "a\\b", "a\u0000b", "a b", " web1", "web1\n", "wéb1", "ミニオン",
        "web1;rm", "a:b", "*", "web?", "a,b"})
    void refusesIdsWithOtherCharactersOrThatNameADirectory(String id) {
        assertThat(MinionId.isValid(id)).isFalse();
        assertThatThrownBy(() -> MinionId.require(id)).isInstanceOf(WireException.class).hasMessageContaining("invalid minion id");
    }

    @Test
    void acceptsExactlyWhatItsDocumentedFormMatchesWithoutALeadingDot() {
        // every one-character id, and ids at the length limit and past it
        for (char c = 0; c < 0x3100; c++) {
            for (String id : new String[] {String.valueOf(c), "a" + c, c + "a"}) {
                assertThat(MinionId.isValid(id)).as("U+%04X in %s", (int) c, id.length() == 1 ? "alone" : "a pair")
                        .isEqualTo(MinionId.VALID.matcher(id).matches() && !id.startsWith("."));
            }
        }
        assertThat(MinionId.isValid("a".repeat(255))).isTrue();
        assertThat(MinionId.isValid("a".repeat(256))).isFalse();
        assertThat(MinionId.isValid("a".repeat(254) + "\uD83D\uDE00")).isFalse();
    }

    @Test
    void refusesNull() {
        assertThat(MinionId.isValid(null)).isFalse();
        assertThatThrownBy(() -> MinionId.require(null)).isInstanceOf(WireException.class).hasMessageContaining("(none)");
    }

    @Test
    void acceptsTwoHundredFiftyFiveCharactersButNotTwoHundredFiftySix() {
        assertThat(MinionId.isValid("a".repeat(255))).isTrue();
        assertThat(MinionId.isValid("a".repeat(256))).isFalse();
    }

    @Test
    void showsNeitherControlCharactersNorAWholeLongIdInItsMessage() {
        assertThatThrownBy(() -> MinionId.require("bad\u0000\u001b[31mid"))
                .hasMessageNotContaining("\u0000")
                .hasMessageNotContaining("\u001b");
        assertThatThrownBy(() -> MinionId.require("b".repeat(300) + "!"))
                .hasMessageContaining("...")
                .hasMessageNotContaining("b".repeat(65));
    }

    @Test
    void resolvesAnIdToAFileDirectlyInsideTheFolder() {
        Path file = MinionId.resolveIn(pki, "web1.example.com");

        assertThat(file.getParent()).isEqualTo(pki.toAbsolutePath().normalize());
        assertThat(file.getFileName().toString()).isEqualTo("web1.example.com");
    }

    @Test
    void resolvesDotsInsideAnIdAsAnOrdinaryFileName() {
        assertThat(MinionId.resolveIn(pki, "a..b").getParent()).isEqualTo(pki.toAbsolutePath().normalize());
    }

    @Test
    void resolvesInsideAFolderGivenAsARelativeOrUnnormalisedPath() throws Exception {
        Path sub = Files.createDirectory(pki.resolve("minions"));
        Path unnormalised = sub.resolve("..").resolve("minions");

        assertThat(MinionId.resolveIn(unnormalised, "web1")).isEqualTo(sub.toAbsolutePath().normalize().resolve("web1"));
        assertThat(MinionId.resolveIn(Path.of("relative"), "web1"))
                .isEqualTo(Path.of("relative").toAbsolutePath().normalize().resolve("web1"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"..", ".", "../minions_pre/web1", "/etc/passwd", "a/../../b", ""})
    void neverResolvesOutsideTheFolder(String id) {
        assertThatThrownBy(() -> MinionId.resolveIn(pki, id)).isInstanceOf(WireException.class);
    }
}
