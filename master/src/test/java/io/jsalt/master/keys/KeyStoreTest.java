package io.jsalt.master.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.jsalt.crypto.Fingerprint;
import io.jsalt.master.support.TestKeys;
import io.jsalt.transport.codec.WireException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KeyStoreTest {
    private static final List<String> FOLDERS =
            List.of("minions", "minions_pre", "minions_rejected", "minions_denied", "minions_autosign");

    @TempDir
    Path root;
    Path pki;
    KeyStore keys;
    String pem;

    @BeforeEach
    void setUp() {
        pki = root.resolve("etc/pki/master");
        keys = new KeyStore(pki);
        pem = TestKeys.pem(TestKeys.minion(0));
    }

    @Test
    void createsThePkiFolderAndEverySaltSubfolderOwnerOnly() throws IOException {
        assertThat(mode(pki)).isEqualTo("rwx------");
        for (String folder : FOLDERS) {
            assertThat(pki.resolve(folder)).isDirectory();
            assertThat(mode(pki.resolve(folder))).as(folder).isEqualTo("rwx------");
        }
    }

    @Test
    void opensAnExistingPkiFolderWithoutLosingKeys() {
        keys.store(KeyState.ACCEPTED, "web1", pem);
        KeyStore again = new KeyStore(pki);
        assertThat(again.stateOf("web1")).contains(KeyState.ACCEPTED);
        assertThat(again.pem(KeyState.ACCEPTED, "web1")).contains(pem);
    }

    @Test
    void storesAKeyInTheFolderOfItsState() throws IOException {
        keys.store(KeyState.PENDING, "web1", pem);

        assertThat(Files.readString(pki.resolve("minions_pre/web1"))).isEqualTo(pem);
        assertThat(keys.stateOf("web1")).contains(KeyState.PENDING);
        assertThat(keys.pem(KeyState.PENDING, "web1")).contains(pem);
        assertThat(keys.pem(KeyState.ACCEPTED, "web1")).isEmpty();
        assertThat(keys.acceptedKey("web1")).isEmpty();
    }

    @Test
    void storeReplacesAnEarlierKeyOfTheSameId() {
        keys.store(KeyState.DENIED, "web1", "old");
        keys.store(KeyState.DENIED, "web1", pem);
        assertThat(keys.pem(KeyState.DENIED, "web1")).contains(pem);
    }

    @Test
    void anAtomicWriteLeavesNoTemporaryFileBehind() throws IOException {
        for (int i = 0; i < 20; i++) {
            keys.store(KeyState.ACCEPTED, "m" + i, pem);
        }
        keys.store(KeyState.ACCEPTED, "m0", pem + "\n");
        try (Stream<Path> files = Files.list(pki.resolve("minions"))) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .hasSize(20)
                    .allMatch(name -> name.matches("m[0-9]+"));
        }
    }

    @Test
    void aStoredKeyFileIsNotWritableByOthers() throws IOException {
        keys.store(KeyState.ACCEPTED, "web1", pem);
        assertThat(mode(pki.resolve("minions/web1"))).matches("rw-.-..-.");
    }

    @Test
    void theStateOfAnUnknownIdIsEmpty() {
        assertThat(keys.stateOf("nobody")).isEmpty();
        assertThat(keys.pem(KeyState.ACCEPTED, "nobody")).isEmpty();
        assertThat(keys.fingerprint(KeyState.ACCEPTED, "nobody")).isEmpty();
    }

    @Test
    void stateOfPrefersAcceptedOverTheOtherStates() {
        keys.store(KeyState.DENIED, "web1", pem);
        keys.store(KeyState.ACCEPTED, "web1", pem);
        assertThat(keys.stateOf("web1")).contains(KeyState.ACCEPTED);
    }

    @Test
    void movesAKeyBetweenStates() {
        keys.store(KeyState.PENDING, "web1", pem);

        assertThat(keys.move("web1", KeyState.PENDING, KeyState.ACCEPTED)).isTrue();

        assertThat(keys.stateOf("web1")).contains(KeyState.ACCEPTED);
        assertThat(pki.resolve("minions_pre/web1")).doesNotExist();
        assertThat(keys.acceptedKey("web1")).contains(TestKeys.minion(0).getPublic());
    }

    @Test
    void theKeptAcceptedKeyFollowsChangesMadeByAnotherProcess() throws IOException {
        keys.store(KeyState.ACCEPTED, "web1", pem);
        assertThat(keys.acceptedKey("web1")).contains(TestKeys.minion(0).getPublic());
        KeyStore jsaltKey = new KeyStore(pki); // as jsalt-key: same folder, its own instance

        jsaltKey.store(KeyState.ACCEPTED, "web1", TestKeys.pem(TestKeys.minion(1)));
        assertThat(keys.acceptedKey("web1")).contains(TestKeys.minion(1).getPublic());

        jsaltKey.move("web1", KeyState.ACCEPTED, KeyState.REJECTED);
        assertThat(keys.acceptedKey("web1")).isEmpty();

        jsaltKey.move("web1", KeyState.REJECTED, KeyState.ACCEPTED);
        assertThat(keys.acceptedKey("web1")).contains(TestKeys.minion(1).getPublic());

        jsaltKey.delete("web1");
        assertThat(keys.acceptedKey("web1")).isEmpty();
    }

    @Test
    void theKeptAcceptedKeyFollowsAnOverwriteInPlaceThatKeepsSizeAndTime() throws IOException {
        keys.store(KeyState.ACCEPTED, "web1", pem);
        assertThat(keys.acceptedKey("web1")).contains(TestKeys.minion(0).getPublic());
        Path file = pki.resolve("minions/web1");
        String other = TestKeys.pem(TestKeys.minion(1));
        assertThat(other).hasSameSizeAs(pem);
        Object inode = Files.getAttribute(file, "unix:ino");
        FileTime modified = Files.getLastModifiedTime(file);
        FileTime changed = (FileTime) Files.getAttribute(file, "unix:ctime");
        // kernels without fine-grained timestamps tick every few ms: let the next write's ctime differ
        await().until(() -> Instant.now().isAfter(changed.toInstant().plusMillis(20)));

        Files.writeString(file, other); // as cp -p onto the file: same inode, same size, time set back
        Files.setLastModifiedTime(file, modified);

        assertThat(Files.getAttribute(file, "unix:ino")).isEqualTo(inode);
        assertThat(keys.acceptedKey("web1")).contains(TestKeys.minion(1).getPublic());
    }

    @Test
    void moveIsFalseWhenTheKeyIsNotInTheSourceState() {
        keys.store(KeyState.REJECTED, "web1", pem);

        assertThat(keys.move("web1", KeyState.PENDING, KeyState.ACCEPTED)).isFalse();
        assertThat(keys.move("ghost", KeyState.PENDING, KeyState.ACCEPTED)).isFalse();

        assertThat(keys.stateOf("web1")).contains(KeyState.REJECTED);
        assertThat(keys.stateOf("ghost")).isEmpty();
    }

    @Test
    void deleteRemovesTheKeyFromEveryStateAndSaysWhichItWasIn() {
        keys.store(KeyState.ACCEPTED, "web1", pem);
        keys.store(KeyState.DENIED, "web1", pem);
        keys.store(KeyState.PENDING, "web2", pem);

        assertThat(keys.delete("web1")).containsExactly(KeyState.ACCEPTED, KeyState.DENIED);
        assertThat(keys.delete("web1")).isEmpty();

        assertThat(keys.stateOf("web1")).isEmpty();
        assertThat(keys.stateOf("web2")).contains(KeyState.PENDING);
    }

    @Test
    void listsIdsSortedPerState() {
        keys.store(KeyState.ACCEPTED, "web2", pem);
        keys.store(KeyState.ACCEPTED, "db1", pem);
        keys.store(KeyState.ACCEPTED, "web1", pem);
        keys.store(KeyState.PENDING, "new1", pem);

        assertThat(keys.list(KeyState.ACCEPTED)).containsExactly("db1", "web1", "web2");
        assertThat(keys.listAll())
                .containsEntry(KeyState.ACCEPTED, List.of("db1", "web1", "web2"))
                .containsEntry(KeyState.PENDING, List.of("new1"))
                .containsEntry(KeyState.REJECTED, List.of())
                .containsEntry(KeyState.DENIED, List.of());
    }

    @Test
    void listIgnoresStrayFilesWhoseNamesAreNotMinionIds() throws IOException {
        keys.store(KeyState.ACCEPTED, "web1", pem);
        Path folder = pki.resolve("minions");
        Files.writeString(folder.resolve("has space"), pem);
        Files.writeString(folder.resolve("semi;colon"), pem);
        Files.writeString(folder.resolve("new\nline"), pem);
        Files.writeString(folder.resolve("wéb1"), pem);
        Files.createDirectory(folder.resolve("a-directory"));

        assertThat(keys.list(KeyState.ACCEPTED)).containsExactly("web1");
    }

    /**
     * Salt's list_keys skips dot files in the key folders: the temporary file of a write interrupted by a
     * crash ({@code .tmp-NNN.key}) or the {@code .key_cache} a salt-master writes into minions/ must not
     * show up as minions named after them.
     */
    @Test
    void listIgnoresDotFilesAsSaltDoes() throws IOException {
        keys.store(KeyState.ACCEPTED, "web1", pem);
        Files.writeString(pki.resolve("minions/.tmp-8081726354.key"), pem);
        Files.write(pki.resolve("minions/.key_cache"), new byte[] {(byte) 0x91, (byte) 0xa4, 'w', 'e', 'b', '1'});

        assertThat(keys.list(KeyState.ACCEPTED)).containsExactly("web1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"../x", "..", ".", "a/b", "/etc/passwd", "a\0b", "a\\b", "", "white space", "a\nb"})
    void refusesIdsThatAreNotMinionIdsAndWritesNothing(String id) throws IOException {
        assertThatThrownBy(() -> keys.store(KeyState.ACCEPTED, id, pem)).isInstanceOf(WireException.class);
        assertThatThrownBy(() -> keys.store(KeyState.PENDING, id, pem)).isInstanceOf(WireException.class);
        assertThatThrownBy(() -> keys.move(id, KeyState.PENDING, KeyState.ACCEPTED)).isInstanceOf(WireException.class);
        assertThatThrownBy(() -> keys.delete(id)).isInstanceOf(WireException.class);
        assertThatThrownBy(() -> keys.stateOf(id)).isInstanceOf(WireException.class);

        try (Stream<Path> all = Files.walk(root)) {
            assertThat(all.filter(Files::isRegularFile)).isEmpty();
        }
    }

    @Test
    void refusesANullId() {
        assertThatThrownBy(() -> keys.store(KeyState.ACCEPTED, null, pem)).isInstanceOf(WireException.class);
    }

    @Test
    void anEscapingIdCannotDeleteAFileOutsideItsFolder() throws IOException {
        Path victim = Files.writeString(pki.resolve("master.pem"), "secret");

        assertThatThrownBy(() -> keys.delete("../master.pem")).isInstanceOf(WireException.class);

        assertThat(victim).hasContent("secret");
    }

    @Test
    void acceptedKeyIsEmptyWhenTheFileIsNotAKey() {
        keys.store(KeyState.ACCEPTED, "web1", "not a pem");
        assertThat(keys.acceptedKey("web1")).isEmpty();
    }

    @Test
    void fingerprintIsTheSha256OfTheStoredPem() {
        keys.store(KeyState.ACCEPTED, "web1", pem);
        assertThat(keys.fingerprint(KeyState.ACCEPTED, "web1")).contains(Fingerprint.sha256(pem));
    }

    private static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }
}
