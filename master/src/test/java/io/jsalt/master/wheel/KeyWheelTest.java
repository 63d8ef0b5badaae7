package io.jsalt.master.wheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.crypto.Fingerprint;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.keys.KeyAdmin;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.runner.RunnerException;
import io.jsalt.master.runner.RunnerFunction;
import io.jsalt.master.support.TestKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Salt's wheel {@code key} functions beyond accept/reject/delete, answered in Salt 3006.8's shapes. */
class KeyWheelTest {
    @TempDir
    Path root;
    KeyStore keys;
    WheelFunctions wheel;
    String masterPub;
    String webPem;

    @BeforeEach
    void setUp() throws IOException {
        keys = new KeyStore(root.resolve("pki"));
        Files.createDirectories(keys.pkiDir());
        masterPub = TestKeys.pem(TestKeys.master());
        Files.writeString(keys.pkiDir().resolve("master.pem"), TestKeys.masterPrivatePem());
        Files.writeString(keys.pkiDir().resolve("master.pub"), masterPub);
        Files.writeString(keys.pkiDir().resolve("notes.txt"), "not a key");
        webPem = TestKeys.pem(TestKeys.minion(0));
        keys.store(KeyState.PENDING, "Web1", webPem);
        keys.store(KeyState.ACCEPTED, "db1", TestKeys.pem(TestKeys.minion(1)));
        keys.store(KeyState.ACCEPTED, "app1", TestKeys.pem(TestKeys.minion(2)));
        wheel = new WheelFunctions(List.of(new KeyWheel(new KeyAdmin(keys, new EventBus(), () -> { }), keys)));
    }

    @Test
    void listAllShowsTheMastersOwnKeyFilesUnderLocal() {
        assertThat(call("key.list_all", Map.of())).isEqualTo(Map.of("minions", List.of("app1", "db1"), "minions_pre", List.of("Web1"),
                "minions_rejected", List.of(), "minions_denied", List.of(), "local", List.of("master.pem", "master.pub")));
    }

    @Test
    void listTakesSaltsStatusWords() {
        assertThat(call("key.list", Map.of("match", "acc"))).isEqualTo(Map.of("minions", List.of("app1", "db1")));
        assertThat(call("key.list", Map.of("match", "unaccepted"))).isEqualTo(Map.of("minions_pre", List.of("Web1")));
        assertThat(call("key.list", Map.of("match", "rej"))).isEqualTo(Map.of("minions_rejected", List.of()));
        assertThat(call("key.list", Map.of("match", "all"))).isEqualTo(call("key.list_all", Map.of()));
        assertThat(call("key.list", Map.of("match", "bogus"))).isEqualTo(Map.of());
    }

    @Test
    void nameMatchShowsOnlyTheStatusesWithAMatchAndTakesCommaSeparatedGlobs() {
        assertThat(call("key.name_match", Map.of("match", "*1"))).isEqualTo(Map.of("minions", List.of("app1", "db1"),
                "minions_pre", List.of("Web1")));
        assertThat(call("key.name_match", Map.of("match", "db*,Web*"))).isEqualTo(Map.of("minions", List.of("db1"),
                "minions_pre", List.of("Web1")));
        assertThat(call("key.name_match", Map.of("match", "zz*"))).isEqualTo(Map.of());
    }

    @Test
    void fingerGivesTheMatchingKeysAndTheMastersOwnForAGlobThatMatchesThem() {
        Map<?, ?> all = (Map<?, ?>) call("key.finger", Map.of("match", "*"));
        assertThat(List.<Object>copyOf(all.keySet())).containsExactly("minions", "minions_pre", "local");
        assertThat(all.get("minions_pre")).isEqualTo(Map.of("Web1", Fingerprint.sha256(webPem)));
        assertThat(all.get("local")).isEqualTo(Map.of("master.pem", Fingerprint.sha256(TestKeys.masterPrivatePem()),
                "master.pub", Fingerprint.sha256(masterPub)));

        assertThat(call("key.finger", Map.of("match", "Web1", "hash_type", "md5"))).isEqualTo(Map.of("minions_pre",
                Map.of("Web1", Fingerprint.md5(webPem))));
        assertThat(call("key.finger", Map.of("match", "nomatch"))).isEqualTo(Map.of());
        assertThatThrownBy(() -> call("key.finger", Map.of("match", "*", "hash_type", "sha1")))
                .isInstanceOf(RunnerException.class).hasMessageContaining("sha256 or md5");
    }

    @Test
    void theMastersPublicKeyAndItsFingerprint() {
        assertThat(call("key.master_key_str", Map.of())).isEqualTo(Map.of("local", Map.of("master.pub", masterPub)));
        assertThat(call("key.finger_master", Map.of())).isEqualTo(Map.of("local", Map.of("master.pub", Fingerprint.sha256(masterPub))));
    }

    @Test
    void printGivesThePublicKeysOfTheMatchingMinionsOnly() {
        assertThat(call("key.print", Map.of("match", "Web*"))).isEqualTo(Map.of("minions_pre", Map.of("Web1", webPem)));
        assertThat(((Map<?, ?>) call("key.print", Map.of("match", "*"))).containsKey("local")).isFalse();
    }

    @Test
    void genHandsBackANewPairAndKeepsNothing() throws IOException {
        List<String> before;
        try (var files = Files.walk(keys.pkiDir())) {
            before = files.map(Path::toString).sorted().toList();
        }

        Map<?, ?> pair = (Map<?, ?>) call("key.gen", Map.of("keysize", 1024));

        assertThat(List.<Object>copyOf(pair.keySet())).containsExactly("priv", "pub");
        var pub = RsaKeys.parsePublicKey((String) pair.get("pub"));
        assertThat(((java.security.interfaces.RSAPublicKey) pub).getModulus().bitLength()).isEqualTo(2048); // Salt's floor
        assertThat(RsaKeys.publicKeyOf(RsaKeys.parsePrivateKey((String) pair.get("priv")))).isEqualTo(pub);
        try (var files = Files.walk(keys.pkiDir())) {
            assertThat(files.map(Path::toString).sorted().toList()).isEqualTo(before);
        }
        assertThatThrownBy(() -> call("key.gen", Map.of("keysize", 16384))).isInstanceOf(RunnerException.class)
                .hasMessageContaining("at most 8192");
    }

    @Test
    void theFunctionsThatWriteKeyFilesAnywhereAreNotOffered() {
        assertThat(wheel.find("key.gen_keys")).isEmpty();
        assertThat(wheel.find("key.gen_signature")).isEmpty();
    }

    private Object call(String fun, Map<String, Object> kwargs) {
        RunnerFunction f = wheel.find(fun).orElseThrow();
        return f.body().call(f.signature().bind(List.of(), kwargs));
    }
}
