package io.jsalt.crypto;

import static io.jsalt.crypto.SaltVectors.hex;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MinionTokTest {
    private static final KeyPair MINION = new KeyPair(RsaKeys.parsePublicKey(SaltVectors.text("keys/minion.pub")),
            RsaKeys.parsePrivateKey(SaltVectors.text("keys/minion.pem")));
    private static final KeyPair MASTER = new KeyPair(RsaKeys.parsePublicKey(SaltVectors.text("keys/master.pub")),
            RsaKeys.parsePrivateKey(SaltVectors.text("keys/master.pem")));
    /** Salt 3006.8's own tok of the vectors' minion key (gen_token(b"salt")). */
    private static final byte[] SALTS_TOK = hex(SaltVectors.strings(SaltVectors.text("known-answer/a-x931-private-encrypt.json"), "output_hex").get(0));

    @TempDir
    Path dir;
    private final List<String> unkept = new ArrayList<>();

    private byte[] loadOrMake(Path file, KeyPair key) {
        return MinionTok.loadOrMake(file, key, unkept::add);
    }

    @Test
    void makesSaltsTokAndKeepsItOwnerOnly() throws Exception {
        Path file = dir.resolve(MinionTok.FILE_NAME);

        byte[] tok = loadOrMake(file, MINION);

        assertThat(tok).isEqualTo(SALTS_TOK);
        assertThat(Files.readAllBytes(file)).isEqualTo(SALTS_TOK);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(unkept).isEmpty();
    }

    @Test
    void aKeptTokIsReadNotMadeAgain() throws Exception {
        Path file = dir.resolve(MinionTok.FILE_NAME);
        loadOrMake(file, MINION);
        Object inode = Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class).fileKey();

        byte[] again = loadOrMake(file, MINION);

        assertThat(again).isEqualTo(SALTS_TOK);
        // a new token would have been written through a rename: a new inode
        assertThat(Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class).fileKey()).isEqualTo(inode);
    }

    @Test
    void theTokOfAnotherKeyIsReplaced() throws Exception {
        Path file = dir.resolve(MinionTok.FILE_NAME);
        loadOrMake(file, MASTER); // as after the minion's key was replaced

        byte[] tok = loadOrMake(file, MINION);

        assertThat(tok).isEqualTo(SALTS_TOK);
        assertThat(Files.readAllBytes(file)).isEqualTo(SALTS_TOK);
    }

    @Test
    void aDamagedFileIsReplaced() throws Exception {
        Path file = dir.resolve(MinionTok.FILE_NAME);
        byte[] truncated = java.util.Arrays.copyOf(SALTS_TOK, 100);
        Files.write(file, truncated);
        assertThat(loadOrMake(file, MINION)).isEqualTo(SALTS_TOK);

        byte[] flipped = SALTS_TOK.clone();
        flipped[7] ^= 1;
        Files.write(file, flipped);
        assertThat(loadOrMake(file, MINION)).isEqualTo(SALTS_TOK);

        Files.write(file, new byte[100_000]);
        assertThat(loadOrMake(file, MINION)).isEqualTo(SALTS_TOK);
        assertThat(Files.readAllBytes(file)).isEqualTo(SALTS_TOK);
    }

    @Test
    void aLinkIsNotFollowedButReplaced() throws Exception {
        Path elsewhere = dir.resolve("elsewhere");
        Files.write(elsewhere, SALTS_TOK);
        Path file = dir.resolve(MinionTok.FILE_NAME);
        Files.createSymbolicLink(file, elsewhere);

        assertThat(loadOrMake(file, MINION)).isEqualTo(SALTS_TOK);

        assertThat(Files.isSymbolicLink(file)).isFalse();
        assertThat(Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)).isTrue();
        assertThat(Files.readAllBytes(elsewhere)).isEqualTo(SALTS_TOK);
    }

    @Test
    void aFolderItCannotWriteGetsTheTokAllTheSameAndAReason() throws Exception {
        Path file = dir.resolve("missing-folder").resolve(MinionTok.FILE_NAME);

        assertThat(loadOrMake(file, MINION)).isEqualTo(SALTS_TOK);

        assertThat(unkept).hasSize(1);
        assertThat(unkept.get(0)).contains(MinionTok.FILE_NAME);
        assertThat(Files.exists(file)).isFalse();
    }

    @Test
    void provesOnlyTheKeysOwnTok() {
        assertThat(MinionTok.proves(MINION, SALTS_TOK)).isTrue();
        assertThat(MinionTok.proves(MASTER, SALTS_TOK)).isFalse();
        assertThat(MinionTok.proves(MINION, new byte[3])).isFalse();
        assertThat(MinionTok.proves(MINION, MinionTok.make(MASTER))).isFalse();
    }
}
