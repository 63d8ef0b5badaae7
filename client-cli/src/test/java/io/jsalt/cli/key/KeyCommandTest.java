package io.jsalt.cli.key;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.cli.testing.Console;
import io.jsalt.transport.codec.Json;
import io.jsalt.minion.testing.SaltVectors;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jsalt-key} in-process with no master running, so it edits the key store itself; the output is
 * salt-key's, word for word, so scripts written for salt-key keep working.
 */
class KeyCommandTest {
    private static final String MINION_PUB = SaltVectors.text("keys/minion.pub");
    private static final String MINION_FINGER = SaltVectors.saltFingerprint("minion.pub");

    @TempDir
    Path tmp;

    private Path configDir;
    private Path pki;
    private KeyStore store;

    @BeforeEach
    void writeMasterConfig() throws IOException {
        configDir = tmp.resolve("conf");
        Files.createDirectories(configDir);
        Path root = tmp.resolve("root");
        // a port nothing listens on, so jsalt-key finds no master and works offline
        Files.writeString(configDir.resolve("master"), String.join("\n",
                "root_dir: " + root,
                "interface: 127.0.0.1",
                "ret_port: " + freePort(),
                "publish_port: " + freePort(),
                ""));
        pki = root.resolve("etc/jsalt/pki/master");
        store = new KeyStore(pki);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private void seed(KeyState state, String... ids) {
        for (String id : ids) {
            store.store(state, id, MINION_PUB);
        }
    }

    private void seedEveryState() {
        seed(KeyState.ACCEPTED, "web-1", "web-2");
        seed(KeyState.PENDING, "new-1", "new-2");
        seed(KeyState.REJECTED, "bad-1");
        seed(KeyState.DENIED, "dup-1");
    }

    private Console.Run keyAnswering(String stdin, String... args) {
        String[] withConfig = new String[args.length + 2];
        withConfig[0] = "-c";
        withConfig[1] = configDir.toString();
        System.arraycopy(args, 0, withConfig, 2, args.length);
        return Console.run(out -> new KeyCommand(out, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8))), withConfig);
    }

    private Console.Run key(String... args) {
        return keyAnswering("", args);
    }

    private static String lines(String... lines) {
        return String.join("\n", lines) + "\n";
    }

    // --- listing --------------------------------------------------------------------------------------

    @Test
    void listAllPrintsEveryStateUnderSaltKeysHeadingsInSaltKeysOrder() {
        seedEveryState();

        Console.Run run = key("-L");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).isEqualTo(lines(
                "Accepted Keys:", "web-1", "web-2",
                "Denied Keys:", "dup-1",
                "Unaccepted Keys:", "new-1", "new-2",
                "Rejected Keys:", "bad-1"));
    }

    @Test
    void withNoOptionItListsEverything() {
        seedEveryState();

        assertThat(key().stdout()).isEqualTo(key("-L").stdout());
    }

    @Test
    void anEmptyStoreStillPrintsEveryHeading() {
        assertThat(key("-L").stdout()).isEqualTo(lines("Accepted Keys:", "Denied Keys:", "Unaccepted Keys:", "Rejected Keys:"));
    }

    @Test
    void listOneStateBySaltKeysWords() {
        seedEveryState();

        assertThat(key("-l", "acc").stdout()).isEqualTo(lines("Accepted Keys:", "web-1", "web-2"));
        assertThat(key("-l", "un").stdout()).isEqualTo(lines("Unaccepted Keys:", "new-1", "new-2"));
        assertThat(key("-l", "pre").stdout()).isEqualTo(lines("Unaccepted Keys:", "new-1", "new-2"));
        assertThat(key("-l", "rej").stdout()).isEqualTo(lines("Rejected Keys:", "bad-1"));
        assertThat(key("-l", "den").stdout()).isEqualTo(lines("Denied Keys:", "dup-1"));
        assertThat(key("-l", "all").stdout()).isEqualTo(key("-L").stdout());
    }

    @Test
    void anUnknownStateIsAUsageError() {
        Console.Run run = key("-l", "bogus");

        assertThat(run.exitCode()).isEqualTo(64);
        assertThat(run.stderr()).contains("unknown key state 'bogus'");
        assertThat(run.stdout()).isEmpty();
    }

    @Test
    void listsAsJsonWithSaltsFolderNames() {
        seedEveryState();

        Console.Run run = key("-L", "--out", "json");

        assertThat(Json.parse(run.stdout())).isEqualTo(Map.of(
                "minions", List.of("web-1", "web-2"),
                "minions_pre", List.of("new-1", "new-2"),
                "minions_rejected", List.of("bad-1"),
                "minions_denied", List.of("dup-1")));
    }

    @Test
    void anUnknownOutputIsAUsageError() {
        assertThat(key("-L", "--out", "xml").exitCode()).isEqualTo(64);
    }

    // --- accept, reject, delete -----------------------------------------------------------------------

    @Test
    void acceptMovesAPendingKeyAndSaysSoAsSaltKeyDoes() {
        seedEveryState();

        Console.Run run = key("-a", "new-1", "-y");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).isEqualTo(lines(
                "The following keys are going to be accepted:",
                "Unaccepted Keys:",
                "new-1",
                "Key for minion new-1 accepted."));
        assertThat(store.stateOf("new-1")).contains(KeyState.ACCEPTED);
        assertThat(store.pem(KeyState.ACCEPTED, "new-1")).contains(MINION_PUB);
        assertThat(store.stateOf("new-2")).contains(KeyState.PENDING);
    }

    @Test
    void acceptTakesAGlob() {
        seed(KeyState.PENDING, "new-1", "new-2", "other");

        key("-a", "new-*", "-y");

        assertThat(store.list(KeyState.ACCEPTED)).containsExactly("new-1", "new-2");
        assertThat(store.list(KeyState.PENDING)).containsExactly("other");
    }

    @Test
    void acceptAllAcceptsEveryPendingKeyAndNothingElse() {
        seedEveryState();

        Console.Run run = key("-A", "-y");

        assertThat(run.stdout()).contains("Key for minion new-1 accepted.", "Key for minion new-2 accepted.");
        assertThat(store.list(KeyState.ACCEPTED)).containsExactly("new-1", "new-2", "web-1", "web-2");
        assertThat(store.list(KeyState.PENDING)).isEmpty();
        assertThat(store.list(KeyState.REJECTED)).containsExactly("bad-1");
        assertThat(store.list(KeyState.DENIED)).containsExactly("dup-1");
    }

    @Test
    void acceptWithIncludeRejectedAcceptsARejectedKey() {
        seedEveryState();

        key("-a", "bad-1", "--include-rejected", "-y");

        assertThat(store.stateOf("bad-1")).contains(KeyState.ACCEPTED);
    }

    @Test
    void acceptMatchingNothingSaysSoInSaltKeysWords() {
        seedEveryState();

        Console.Run run = key("-a", "nope", "-y");

        assertThat(run.exitCode()).isZero();
        assertThat(run.stdout()).isEqualTo("The key glob 'nope' does not match any unaccepted keys.\n");
    }

    @Test
    void rejectMovesAPendingKeyButNotAnAcceptedOne() {
        seedEveryState();

        Console.Run run = key("-r", "*-1", "-y");

        assertThat(run.stdout()).isEqualTo(lines(
                "The following keys are going to be rejected:",
                "Unaccepted Keys:",
                "new-1",
                "Key for minion new-1 rejected."));
        assertThat(store.stateOf("new-1")).contains(KeyState.REJECTED);
        assertThat(store.stateOf("web-1")).contains(KeyState.ACCEPTED);
    }

    @Test
    void rejectWithIncludeAcceptedRejectsAnAcceptedKey() {
        seedEveryState();

        key("-r", "web-2", "--include-accepted", "-y");

        assertThat(store.stateOf("web-2")).contains(KeyState.REJECTED);
    }

    @Test
    void deleteRemovesAKeyInAnyState() {
        seedEveryState();

        Console.Run run = key("-d", "web-1", "-y");

        assertThat(run.stdout()).isEqualTo(lines(
                "The following keys are going to be deleted:",
                "Accepted Keys:",
                "web-1",
                "Key for minion web-1 deleted."));
        assertThat(store.stateOf("web-1")).isEmpty();

        key("-d", "bad-1", "-y");
        key("-d", "dup-1", "-y");
        assertThat(store.stateOf("bad-1")).isEmpty();
        assertThat(store.stateOf("dup-1")).isEmpty();
    }

    @Test
    void deleteAllEmptiesTheStore() {
        seedEveryState();

        key("-D", "-y");

        assertThat(store.listAll().values()).allMatch(List::isEmpty);
    }

    @Test
    void withoutYesItAsksAndANoChangesNothing() {
        seedEveryState();

        Console.Run run = keyAnswering("n\n", "-a", "new-1");

        assertThat(run.stdout()).contains("Proceed? [n/Y] ").endsWith("Nothing was changed.\n");
        assertThat(store.stateOf("new-1")).contains(KeyState.PENDING);
    }

    @Test
    void withoutYesAYesProceeds() {
        seed(KeyState.PENDING, "new-1");

        Console.Run run = keyAnswering("y\n", "-a", "new-1");

        assertThat(run.stdout()).contains("Key for minion new-1 accepted.");
        assertThat(store.stateOf("new-1")).contains(KeyState.ACCEPTED);
    }

    @Test
    void anEmptyAnswerAcceptsAsSaltKeysDefaultYes() {
        seed(KeyState.PENDING, "new-1");

        keyAnswering("\n", "-a", "new-1");

        assertThat(store.stateOf("new-1")).contains(KeyState.ACCEPTED);
    }

    @Test
    void aClosedInputChangesNothing() {
        seed(KeyState.PENDING, "new-1");

        keyAnswering("", "-a", "new-1");

        assertThat(store.stateOf("new-1")).contains(KeyState.PENDING);
    }

    @Test
    void deleteAsksWithSaltKeysSaferDefaultAndAnEmptyAnswerKeepsTheKeys() {
        // salt-key: "Proceed? [N/y] " for delete, and an empty answer means no
        seedEveryState();

        Console.Run run = keyAnswering("\n", "-d", "web-1");

        assertThat(run.stdout()).contains("Proceed? [N/y] ");
        assertThat(store.stateOf("web-1")).contains(KeyState.ACCEPTED);
    }

    @Test
    void deleteWithoutYesAndANoKeepsTheKeys() {
        seedEveryState();

        keyAnswering("n\n", "-d", "web-1");

        assertThat(store.stateOf("web-1")).contains(KeyState.ACCEPTED);
    }

    // --- fingerprints ---------------------------------------------------------------------------------

    @Test
    void fingerPrintsTheSaltFingerprintOfMatchingKeys() {
        seedEveryState();

        Console.Run run = key("-f", "web-1");

        assertThat(run.stdout()).isEqualTo(lines("Accepted Keys:", "web-1:  " + MINION_FINGER));
    }

    @Test
    void fingerAllStartsWithTheMastersOwnKeys() throws IOException {
        Files.writeString(pki.resolve("master.pem"), SaltVectors.text("keys/master.pem"));
        Files.writeString(pki.resolve("master.pub"), SaltVectors.text("keys/master.pub"));
        seed(KeyState.ACCEPTED, "web-1");
        seed(KeyState.PENDING, "new-1");

        Console.Run run = key("-F");

        assertThat(run.stdout()).isEqualTo(lines(
                "Local Keys:",
                "master.pem:  " + SaltVectors.saltFingerprint("master.pem"),
                "master.pub:  " + SaltVectors.saltFingerprint("master.pub"),
                "Accepted Keys:",
                "web-1:  " + MINION_FINGER,
                "Unaccepted Keys:",
                "new-1:  " + MINION_FINGER));
    }

    @Test
    void fingerAsJsonNamesTheFolders() throws IOException {
        Files.writeString(pki.resolve("master.pub"), SaltVectors.text("keys/master.pub"));
        seed(KeyState.ACCEPTED, "web-1");

        Object json = Json.parse(key("-F", "--out", "json").stdout());

        assertThat(json).isEqualTo(Map.of(
                "local", Map.of("master.pub", SaltVectors.saltFingerprint("master.pub")),
                "minions", Map.of("web-1", MINION_FINGER),
                "minions_pre", Map.of(),
                "minions_rejected", Map.of(),
                "minions_denied", Map.of()));
    }

    // --- configuration --------------------------------------------------------------------------------

    @Test
    void aMissingConfigFolderIsAConfigError() {
        Console.Run run = Console.run(out -> new KeyCommand(out, new ByteArrayInputStream(new byte[0])),
                "-c", tmp.resolve("nowhere").toString(), "-L");

        assertThat(run.exitCode()).isEqualTo(78);
        assertThat(run.stderr()).contains(tmp.resolve("nowhere").toString());
    }

    @Test
    void aBadConfigValueIsAConfigErrorNamingTheKey() throws IOException {
        Files.writeString(configDir.resolve("master"), "ret_port: many\n");

        Console.Run run = key("-L");

        assertThat(run.exitCode()).isEqualTo(78);
        assertThat(run.stderr()).contains("ret_port");
    }

    @Test
    void twoActionsAtOnceAreAUsageError() {
        Console.Run run = key("-L", "-a", "x");

        assertThat(run.exitCode()).isEqualTo(64);
    }
}
