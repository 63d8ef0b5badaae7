package io.jsalt.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MinionConfigTest {
    private static final String FINGER =
            "4f:0a:9b:c1:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff:00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd";

    @TempDir
    Path dir;

    private MinionConfig load(String yaml) throws IOException {
        Files.writeString(dir.resolve("minion"), yaml);
        return MinionConfig.load(dir);
    }

    private void assertRefused(String yaml, String key, String expected) throws IOException {
        Files.writeString(dir.resolve("minion"), yaml);
        assertThatThrownBy(() -> MinionConfig.load(dir))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(dir.resolve("minion") + ": " + key + ": expected " + expected + ", got ")
                .satisfies(e -> assertThat(((ConfigException) e).key()).hasValue(key));
    }

    @Test
    void missingFileGivesSaltsDefaults() {
        MinionConfig minion = MinionConfig.load(dir);
        assertThat(minion.configDir()).isEqualTo(dir.toAbsolutePath());
        assertThat(MinionId.isValid(minion.id())).isTrue();
        assertThat(minion.id()).isEqualTo(MinionId.ofThisHost());
        assertThat(minion.master()).isEqualTo("salt");
        assertThat(minion.masterPort()).isEqualTo(4506);
        assertThat(minion.publishPort()).isEqualTo(4505);
        assertThat(minion.rootDir()).isEqualTo(Path.of("/"));
        assertThat(minion.pkiDir()).isEqualTo(Path.of("/etc/jsalt/pki/minion"));
        assertThat(minion.cachedir()).isEqualTo(Path.of("/var/cache/jsalt/minion"));
        assertThat(minion.sockDir()).isEqualTo(Path.of("/var/run/jsalt/minion"));
        assertThat(minion.logFile()).isEqualTo(Path.of("/var/log/jsalt/minion"));
        assertThat(minion.logLevel()).isEqualTo("warning");
        assertThat(minion.acceptanceWaitTime()).isEqualTo(10.0);
        assertThat(minion.acceptanceWaitTimeMax()).isEqualTo(10.0);
        assertThat(minion.authTimeout()).isEqualTo(5);
        assertThat(minion.authTries()).isEqualTo(7);
        assertThat(minion.masterFinger()).isEmpty();
        assertThat(minion.randomReauthDelay()).isEqualTo(10);
        assertThat(minion.rejectedRetry()).isFalse();
        assertThat(minion.minionSignMessages()).isTrue();
        assertThat(minion.zmqFiltering()).isFalse();
        assertThat(minion.processCountMax()).isEqualTo(20);
        assertThat(minion.grains()).isEmpty();
        assertThat(minion.returnRetryTimer()).isEqualTo(5);
        assertThat(minion.returnRetryTimerMax()).isEqualTo(10);
        assertThat(minion.reconDefault()).isEqualTo(1000);
        assertThat(minion.reconMax()).isEqualTo(10000);
        assertThat(minion.reconRandomize()).isTrue();
        assertThat(minion.frameLimits()).isEqualTo(new MinionConfig.FrameLimits(32 * 1_048_576, 16 * 1_048_576));
        assertThat(minion.requestIdleClose()).isEqualTo(60.0);
    }

    @Test
    void requestIdleCloseIsReadInSecondsAndRefusedBelowZero() throws IOException {
        assertThat(load("request_idle_close: 0.5\n").requestIdleClose()).isEqualTo(0.5);
        assertThat(load("request_idle_close: 0\n").requestIdleClose()).isZero();
        assertRefused("request_idle_close: -1\n", "request_idle_close", "a number 0..86400");
        assertRefused("request_idle_close: soon\n", "request_idle_close", "a number 0..86400");
    }

    @Test
    void frameLimitsAreReadByTheirKeysAndRefusedBelowWhatASignInNeeds() throws IOException {
        MinionConfig minion = load("""
                max_publication_size: 104857600
                max_reply_size: 65536
                """);
        assertThat(minion.frameLimits()).isEqualTo(new MinionConfig.FrameLimits(104_857_600, 65_536));
        assertRefused("max_reply_size: 1024\n", "max_reply_size", "an integer >= 65536");
        assertRefused("max_publication_size: big\n", "max_publication_size", "an integer >= 65536");
    }

    @Test
    void readsEveryKeyBySaltsName() throws IOException {
        MinionConfig minion = load("""
                id: web-01.example.com
                master: 10.1.2.3
                master_port: 14506
                publish_port: 14505
                log_level: info
                acceptance_wait_time: 0.5
                acceptance_wait_time_max: 30
                auth_timeout: 60
                auth_tries: 3
                master_finger: '%s'
                random_reauth_delay: 0
                rejected_retry: yes
                minion_sign_messages: no
                zmq_filtering: true
                process_count_max: 4
                grains:
                  roles: [web]
                  datacenter: par1
                return_retry_timer: 2
                return_retry_timer_max: 4
                recon_default: 100
                recon_max: 200
                recon_randomize: false
                """.formatted(FINGER.toUpperCase()));
        assertThat(minion.id()).isEqualTo("web-01.example.com");
        assertThat(minion.master()).isEqualTo("10.1.2.3");
        assertThat(minion.masterPort()).isEqualTo(14506);
        assertThat(minion.publishPort()).isEqualTo(14505);
        assertThat(minion.logLevel()).isEqualTo("info");
        assertThat(minion.acceptanceWaitTime()).isEqualTo(0.5);
        assertThat(minion.acceptanceWaitTimeMax()).isEqualTo(30.0);
        assertThat(minion.authTimeout()).isEqualTo(60);
        assertThat(minion.authTries()).isEqualTo(3);
        assertThat(minion.masterFinger()).isEqualTo(FINGER);
        assertThat(minion.randomReauthDelay()).isZero();
        assertThat(minion.rejectedRetry()).isTrue();
        assertThat(minion.minionSignMessages()).isFalse();
        assertThat(minion.zmqFiltering()).isTrue();
        assertThat(minion.processCountMax()).isEqualTo(4);
        assertThat(minion.grains()).isEqualTo(Map.of("roles", List.of("web"), "datacenter", "par1"));
        assertThat(minion.returnRetryTimer()).isEqualTo(2);
        assertThat(minion.returnRetryTimerMax()).isEqualTo(4);
        assertThat(minion.reconDefault()).isEqualTo(100);
        assertThat(minion.reconMax()).isEqualTo(200);
        assertThat(minion.reconRandomize()).isFalse();
    }

    @Test
    void supervisorOnStopLeavesTheProgramsRunningUnlessToldToStopThem() throws IOException {
        assertThat(load("id: a\n").supervision().leaveOnStop()).isTrue();
        assertThat(load("supervisor_on_stop: stop\n").supervision().leaveOnStop()).isFalse();
        assertThat(load("supervisor_on_stop: leave\n").supervision().leaveOnStop()).isTrue();
        assertRefused("supervisor_on_stop: kill\n", "supervisor_on_stop", "leave or stop");
    }

    @Test
    void acceptanceWaitTimeMaxNeverFallsBelowTheWaitItBounds() throws IOException {
        assertThat(load("acceptance_wait_time: 3\n").acceptanceWaitTimeMax()).isEqualTo(3.0);
        assertThat(load("acceptance_wait_time: 3\nacceptance_wait_time_max: 1\n").acceptanceWaitTimeMax())
                .isEqualTo(3.0);
    }

    @Test
    void rootDirPrefixesEveryPath() throws IOException {
        Path sandbox = dir.resolve("sb");
        MinionConfig minion = load("root_dir: " + sandbox + "\nid: m1\n");
        assertThat(minion.pkiDir()).isEqualTo(sandbox.resolve("etc/jsalt/pki/minion"));
        assertThat(minion.cachedir()).isEqualTo(sandbox.resolve("var/cache/jsalt/minion"));
        assertThat(minion.sockDir()).isEqualTo(sandbox.resolve("var/run/jsalt/minion"));
        assertThat(minion.logFile()).isEqualTo(sandbox.resolve("var/log/jsalt/minion"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"m1", "web-01.example.com", "a@b", "UPPER_lower.09", "a..b"})
    void idFromTheAllowedAlphabetIsAccepted(String id) throws IOException {
        assertThat(load("id: '" + id + "'\n").id()).isEqualTo(id);
    }

    @ParameterizedTest
    @ValueSource(strings = {"'.'", "'..'", "a/b", "'../../etc'", "'a b'", "\"a\\0b\"", "\"\"", "m1!", "é"})
    void idOutsideTheAllowedAlphabetIsRefused(String written) throws IOException {
        assertRefused("id: " + written + "\n", "id",
                "a minion id of 1 to 255 characters from A-Z a-z 0-9 . _ @ - (not starting with \".\")");
    }

    @Test
    void idLongerThan255CharactersIsRefused() throws IOException {
        assertThat(load("id: " + "a".repeat(255) + "\n").id()).hasSize(255);
        assertRefused("id: " + "a".repeat(256) + "\n", "id",
                "a minion id of 1 to 255 characters from A-Z a-z 0-9 . _ @ - (not starting with \".\")");
    }

    @Test
    void numericIdMustBeQuotedSinceYamlWouldTurn007Into7() throws IOException {
        assertRefused("id: 007\n", "id",
                "a minion id of 1 to 255 characters from A-Z a-z 0-9 . _ @ - (not starting with \".\") in quotes");
        assertThat(load("id: '007'\n").id()).isEqualTo("007");
    }

    @ParameterizedTest
    @ValueSource(strings = {"4f:0a", "4f0a9bc122334455667788990aabbccddeeff00112233445566778899aabbccdd",
        "zz:0a:9b:c1:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff:00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd",
        "4f:0a:9b:c1:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff:00:11", "4f:0a:9b:c1:22:33:44:55:66:77:88:99:aa:bb:"
            + "cc:dd:ee:ff:00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee"})
    void masterFingerThatIsNotASha256FingerprintIsRefused(String finger) throws IOException {
        assertRefused("master_finger: '" + finger + "'\n", "master_finger",
                "\"\" or a sha256 fingerprint of 32 hex pairs like \"4f:0a:...\"");
    }

    @Test
    void masterFingerIsAcceptedInEitherCaseAndStoredLowerCase() throws IOException {
        assertThat(load("master_finger: '" + FINGER.toUpperCase() + "'\n").masterFinger()).isEqualTo(FINGER);
        assertThat(load("master_finger: ''\n").masterFinger()).isEmpty();
    }

    @Test
    void oneMasterIsSaltsDefaultSingleMasterSetUp() {
        Masters masters = MinionConfig.load(dir).masters();
        assertThat(masters.list()).containsExactly(new MasterAddress("salt", 4506));
        assertThat(masters.type()).isEqualTo(Masters.Type.STR);
        assertThat(masters.hotHot()).isTrue();
        assertThat(masters.aliveInterval()).isZero();
        assertThat(masters.failback()).isFalse();
        assertThat(masters.failbackInterval()).isZero();
        assertThat(masters.random()).isFalse();
        assertThat(masters.retryDns()).isEqualTo(30.0);
        assertThat(masters.retryDnsCount()).isEqualTo(-1);
    }

    @Test
    void aListOfMastersTakesSaltsHostPortFormsAndMasterPortForTheRest() throws IOException {
        MinionConfig minion = load("""
                master: [m1.example.org, '10.0.0.2:14506', '[fd00::3]:24506', 'fd00::4']
                master_port: 4510
                """);
        assertThat(minion.masters().list()).containsExactly(new MasterAddress("m1.example.org", 4510),
                new MasterAddress("10.0.0.2", 14506), new MasterAddress("fd00::3", 24506), new MasterAddress("fd00::4", 4510));
        assertThat(minion.master()).isEqualTo("m1.example.org");
        assertThat(minion.masterPort()).isEqualTo(4510);
        assertThat(minion.masters().list().get(2)).hasToString("[fd00::3]:24506");
    }

    @Test
    void aSingleMasterWithAPortIsThatMastersAddress() throws IOException {
        MinionConfig minion = load("master: 'salt.example.org:14506'\n");
        assertThat(minion.master()).isEqualTo("salt.example.org");
        assertThat(minion.masterPort()).isEqualTo(14506);
    }

    @Test
    void failoverKeysAreReadAsSaltNamesThem() throws IOException {
        Masters masters = load("""
                master: [m1, m2, m3]
                master_type: failover
                master_alive_interval: 5
                master_failback: true
                random_master: true
                retry_dns: 2.5
                retry_dns_count: 3
                """).masters();
        assertThat(masters.type()).isEqualTo(Masters.Type.FAILOVER);
        assertThat(masters.hotHot()).isFalse();
        assertThat(masters.aliveInterval()).isEqualTo(5);
        assertThat(masters.failback()).isTrue();
        assertThat(masters.failbackInterval()).isZero();
        assertThat(masters.effectiveFailbackInterval()).as("0 means master_alive_interval, as Salt resolves it").isEqualTo(5);
        assertThat(masters.random()).isTrue();
        assertThat(masters.retryDns()).isEqualTo(2.5);
        assertThat(masters.retryDnsCount()).isEqualTo(3);
    }

    @Test
    void theDeprecatedMasterShuffleStillShuffles() throws IOException {
        assertThat(load("master: [m1, m2]\nmaster_shuffle: true\n").masters().random()).isTrue();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "master                 | 'salt:99999' | a host, host:port or [IPv6]:port, or a list of them",
        "master                 | [m1, 'a b']  | a host, host:port or [IPv6]:port, or a list of them",
        "master                 | []           | a host, host:port or [IPv6]:port, or a list of them (the list is empty)",
        "master                 | [m1, m1:4506] | a host, host:port or [IPv6]:port, or a list of them, each once (m1:4506 is listed twice)",
        "master                 | 'fd00::1]:4506' | a host, host:port or [IPv6]:port, or a list of them",
        "master_type            | func         | str or failover (jsalt has no func, disable or distributed)",
        "master_type            | disable      | str or failover (jsalt has no func, disable or distributed)",
        "master_alive_interval  | -2           | an integer -1..86400",
        "master_failback        | maybe        | true or false (yes/no accepted)",
        "master_failback_interval | -1         | an integer 0..86400",
        "random_master          | 2            | true or false (yes/no accepted)",
        "retry_dns              | -1           | a number 0..86400",
        "retry_dns_count        | -1           | an integer 0..1000000",
        "master_port            | 70000      | an integer 1..65535",
        "master_port            | 4505       | a port other than publish_port (4505)",
        "publish_port           | x          | an integer 1..65535",
        "log_level              | loud       | one of all, garbage, trace, debug, profile, info, warning, error, critical, quiet",
        "acceptance_wait_time   | 0          | a number > 0 and <= 86400",
        "acceptance_wait_time   | -1.5       | a number > 0 and <= 86400",
        "acceptance_wait_time_max | ten      | a number 0..86400",
        "auth_timeout           | 0          | an integer 1..86400",
        "auth_tries             | 0          | an integer 1..10000",
        "random_reauth_delay    | -1         | an integer 0..86400",
        "rejected_retry         | 2          | true or false (yes/no accepted)",
        "minion_sign_messages   | sure       | true or false (yes/no accepted)",
        "zmq_filtering          | 1          | true or false (yes/no accepted)",
        "process_count_max      | 0          | an integer 1..10000",
        "process_count_max      | 10001      | an integer 1..10000",
        "grains                 | [a, b]     | a mapping with string keys",
        "return_retry_timer     | 0          | an integer 1..86400",
        "return_retry_timer_max | -1         | an integer 0..86400",
        "recon_default          | 0          | an integer 1..3600000",
        "recon_max              | 1.5        | an integer 0..3600000",
        "recon_randomize        | maybe      | true or false (yes/no accepted)",
    })
    void badValueIsRefusedNamingFileKeyAndExpectedForm(String key, String written, String expected)
            throws IOException {
        assertRefused(key + ": " + written + "\n", key, expected);
    }

    @Test
    void unknownKeysAreReportedNotFatal() throws IOException {
        Files.writeString(dir.resolve("minion"), "id: m1\nmine_functions: {}\nstartup_states: highstate\n");
        ConfigFile file = ConfigFile.load(dir.resolve("minion"));
        assertThat(MinionConfig.from(file).id()).isEqualTo("m1");
        assertThat(file.unknownKeys()).containsExactly("mine_functions", "startup_states");
    }

    @Test
    void builderCreatesManyConfigsWithoutFiles() {
        Path sandbox = dir.resolve("bench");
        for (int i = 0; i < 1000; i++) {
            MinionConfig minion = MinionConfig.builder(sandbox.resolve("m" + i)).id("m" + i).master("127.0.0.1")
                    .masterPort(30001).publishPort(30000).acceptanceWaitTime(0.5).build();
            assertThat(minion.id()).isEqualTo("m" + i);
            assertThat(minion.pkiDir()).isEqualTo(sandbox.resolve("m" + i + "/etc/jsalt/pki/minion"));
            assertThat(minion.acceptanceWaitTime()).isEqualTo(0.5);
        }
        assertThat(Files.exists(sandbox)).isFalse();
    }

    @Test
    void builderGivesWhatTheSameValuesInAFileGive() throws IOException {
        Path sandbox = dir.resolve("sb");
        Files.writeString(dir.resolve("minion"), """
                root_dir: %s
                id: m7
                master: 127.0.0.1
                master_port: 30001
                publish_port: 30000
                acceptance_wait_time: 0.5
                grains: {role: bench}
                """.formatted(sandbox));
        MinionConfig fromFile = MinionConfig.load(dir);
        MinionConfig built = MinionConfig.builder(sandbox).configDir(dir).id("m7").master("127.0.0.1")
                .masterPort(30001).publishPort(30000).acceptanceWaitTime(0.5).grains(Map.of("role", "bench")).build();
        assertThat(built).isEqualTo(fromFile);
    }

    @Test
    void defaultsFactoryUsesTheRootAndId() {
        MinionConfig minion = MinionConfig.defaults(dir, "m2");
        assertThat(minion.id()).isEqualTo("m2");
        assertThat(minion.master()).isEqualTo("salt");
        assertThat(minion.configDir()).isEqualTo(dir.resolve("etc/jsalt"));
        assertThat(minion.cachedir()).isEqualTo(dir.resolve("var/cache/jsalt/minion"));
    }

    @Test
    void builderRefusesBadValuesAndUnknownKeysNamingTheSaltKey() {
        assertThatThrownBy(() -> MinionConfig.builder(dir).id("../evil").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("<MinionConfig.builder>: id: expected a minion id");
        assertThatThrownBy(() -> MinionConfig.builder(dir).id("m1").acceptanceWaitTime(0).build())
                .hasMessage("<MinionConfig.builder>: acceptance_wait_time: expected a number > 0 and <= 86400, got 0.0");
        assertThatThrownBy(() -> MinionConfig.builder(dir).id("m1").set("master_fingr", "x").build())
                .hasMessageContaining("master_fingr: expected a key MinionConfig knows");
    }

    @Test
    void grainsAreUnmodifiable() {
        MinionConfig minion = MinionConfig.builder(dir).id("m1").grains(Map.of("os", "Linux")).build();
        assertThatThrownBy(() -> minion.grains().put("os", "Windows")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void extensionModulesDefaultsToExtmodsInTheCachedirAndTheGrainsFileSitsInTheConfigFolder() throws IOException {
        MinionConfig minion = load("root_dir: /tmp/sb\ncachedir: /var/cache/m\n");
        assertThat(minion.extensionModules()).isEqualTo(Path.of("/tmp/sb/var/cache/m/extmods"));
        assertThat(minion.grainsFile()).isEqualTo(minion.configDir().resolve("grains"));
        assertThat(load("extension_modules: /opt/ext\n").extensionModules()).isEqualTo(Path.of("/opt/ext"));
    }

    @Test
    void cmdSafeIsOffUnlessTheFileSaysTrueAndANonBooleanIsRefused() throws IOException {
        assertThat(MinionConfig.load(dir).cmdSafe()).isFalse();
        assertThat(load("cmd_safe: True\n").cmdSafe()).isTrue();
        assertThat(load("cmd_safe: false\n").cmdSafe()).isFalse();
        assertRefused("cmd_safe: sometimes\n", "cmd_safe", "true or false (yes/no accepted)");
    }

    @Test
    void cmdSafeIsAKnownKeyNotWarnedAbout() throws IOException {
        Files.writeString(dir.resolve("minion"), "cmd_safe: True\n");
        assertThat(ConfigFile.load(dir.resolve("minion"))).satisfies(file -> {
            MinionConfig.parse(file, dir);
            assertThat(file.unknownKeys()).isEmpty();
        });
    }
}
