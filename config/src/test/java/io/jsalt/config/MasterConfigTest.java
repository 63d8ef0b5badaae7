package io.jsalt.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.transport.RequestServerKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MasterConfigTest {
    @TempDir
    Path dir;

    private MasterConfig load(String yaml) throws IOException {
        Files.writeString(dir.resolve("master"), yaml);
        return MasterConfig.load(dir);
    }

    @Test
    void missingFileGivesSaltsDefaults() {
        MasterConfig master = MasterConfig.load(dir);
        assertThat(master.configDir()).isEqualTo(dir.toAbsolutePath());
        assertThat(master.interfaceAddress()).isEqualTo("0.0.0.0");
        assertThat(master.publishPort()).isEqualTo(4505);
        assertThat(master.retPort()).isEqualTo(4506);
        assertThat(master.workerThreads()).isEqualTo(5);
        assertThat(master.rootDir()).isEqualTo(Path.of("/"));
        assertThat(master.pkiDir()).isEqualTo(Path.of("/etc/jsalt/pki/master"));
        assertThat(master.cachedir()).isEqualTo(Path.of("/var/cache/jsalt/master"));
        assertThat(master.sockDir()).isEqualTo(Path.of("/var/run/jsalt/master"));
        assertThat(master.logFile()).isEqualTo(Path.of("/var/log/jsalt/master"));
        assertThat(master.logLevel()).isEqualTo("warning");
        assertThat(master.autoAccept()).isFalse();
        assertThat(master.openMode()).isFalse();
        assertThat(master.maxMinions()).isZero();
        assertThat(master.timeout()).isEqualTo(5);
        assertThat(master.keepJobsSeconds()).isEqualTo(86400);
        assertThat(master.publishSession()).isEqualTo(86400);
        assertThat(master.rotateAesKey()).isTrue();
        assertThat(master.requireMinionSignMessages()).as("the trust policy, docs/interop.md").isFalse();
        assertThat(master.zmqFiltering()).isFalse();
        assertThat(master.loopInterval()).isEqualTo(60);
        assertThat(master.signPubMessages()).isTrue();
        assertThat(master.gatherJobTimeout()).isEqualTo(10);
        assertThat(master.masterJobCache()).isEqualTo("sqlite");
    }

    @Test
    void emptyFileGivesTheSameDefaultsAsNoFile() throws IOException {
        assertThat(load("")).isEqualTo(MasterConfig.load(dir));
    }

    @Test
    void readsEveryKeyBySaltsName() throws IOException {
        MasterConfig master = load("""
                interface: 127.0.0.1
                publish_port: 14505
                ret_port: 14506
                worker_threads: 12
                log_level: DEBUG
                auto_accept: yes
                open_mode: true
                max_minions: 100
                timeout: 30
                keep_jobs_seconds: 0
                publish_session: 3600
                rotate_aes_key: no
                require_minion_sign_messages: true
                zmq_filtering: on
                loop_interval: 5
                sign_pub_messages: False
                gather_job_timeout: 20
                master_job_cache: Memory
                """);
        assertThat(master).isEqualTo(new MasterConfig(dir.toAbsolutePath(), "127.0.0.1", 14505, 14506, 12,
                Path.of("/"), Path.of("/etc/jsalt/pki/master"), Path.of("/var/cache/jsalt/master"),
                Path.of("/var/run/jsalt/master"), Path.of("/var/log/jsalt/master"), "debug", true, true, 100, 30, 0,
                3600, false, true, true, 5, false, 20, false,
                new DaemonConfig(Path.of("/var/run/jsalt/jsalt-master.pid"), 10, "debug", DaemonConfig.DEFAULT_LOG_FMT, 0, 5),
                new MasterConfig.Supervision(5, 60, false), "memory", Map.of(),
                Map.of("base", List.of(Path.of("/srv/jsalt"))), 262_144,
                new MasterConfig.RequestPortLimits(16 * 1_048_576, 64 * 1_048_576), MasterConfig.AbuseLimits.DEFAULTS,
                new PillarSettings(Map.of("base", List.of(Path.of("/srv/pillar"))), "smart", false, true),
                PostgresSettings.defaults(), StateOutputSettings.DEFAULTS));
    }

    @Test
    void stateOutputKeysAreReadWithSaltsNamesAndAnUnknownModeIsRefused() throws IOException {
        MasterConfig master = load("""
                state_output: Changes_ID
                state_verbose: False
                state_output_diff: True
                state_output_profile: False
                """);
        assertThat(master.stateOutput()).isEqualTo(new StateOutputSettings("changes_id", false, true, false));
        assertThat(master.stateOutput().showsUnchanged()).isFalse();
        assertThat(load("").stateOutput()).isEqualTo(StateOutputSettings.DEFAULTS);
        assertThat(StateOutputSettings.DEFAULTS.showsUnchanged()).isTrue();
        assertThatThrownBy(() -> load("state_output: filter\n")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("state_output").hasMessageContaining("full, terse, mixed, changes");
        assertThatThrownBy(() -> load("state_verbose: sometimes\n")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("state_verbose");
    }

    @Test
    void requestServerIsNativeByDefaultJeromqOnRequestAndAnythingElseIsRefused() throws IOException {
        assertThat(load("").requestPortLimits().requestServer()).isEqualTo(RequestServerKind.NATIVE);
        assertThat(load("request_server: jeromq\n").requestPortLimits().requestServer()).isEqualTo(RequestServerKind.JEROMQ);
        assertThat(load("request_server: Native\n").requestPortLimits().requestServer()).isEqualTo(RequestServerKind.NATIVE);
        assertThatThrownBy(() -> load("request_server: zmq\n")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("request_server").hasMessageContaining("native or jeromq");
    }

    @Test
    void requestPortLimitsAreReadAndTheBudgetMustHoldTheLargestRequest() throws IOException {
        MasterConfig master = load("""
                max_request_size: 1048576
                max_inflight_request_bytes: 8388608
                """);
        assertThat(master.requestPortLimits()).isEqualTo(new MasterConfig.RequestPortLimits(1_048_576, 8_388_608));

        assertThatThrownBy(() -> load("""
                max_request_size: 4194304
                max_inflight_request_bytes: 1048576
                """)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("max_inflight_request_bytes").hasMessageContaining("at least max_request_size");
        assertThatThrownBy(() -> load("max_request_size: 100\n")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("max_request_size");
    }

    @Test
    void pillarKeysAreReadWithSaltsNamesAndConfiguredRootsAsWritten() throws IOException {
        Path sandbox = dir.resolve("sandbox");
        Path outside = dir.resolve("elsewhere/pillar");
        MasterConfig master = load("root_dir: " + sandbox + "\n" + """
                pillar_roots:
                  base: [%s, %s/more]
                  dev: /srv/dev/../dev
                pillar_source_merging_strategy: Overwrite
                pillar_merge_lists: True
                pillar_safe_render_error: False
                """.formatted(outside, sandbox));
        // Salt 3006.8's prepend_root_dir never touches pillar_roots: a folder outside root_dir stays where it is
        assertThat(master.pillar()).isEqualTo(new PillarSettings(Map.of(
                "base", List.of(outside, sandbox.resolve("more")),
                "dev", List.of(Path.of("/srv/dev"))), "overwrite", true, false));
        // jsalt's default alone is placed under root_dir (a sandbox never reads the host's /srv/pillar)
        assertThat(load("root_dir: " + sandbox + "\n").pillar()).isEqualTo(PillarSettings.defaults(sandbox));
        assertThat(PillarSettings.defaults(sandbox).roots()).containsExactly(Map.entry("base", List.of(sandbox.resolve("srv/pillar"))));
        assertThatThrownBy(() -> load("pillar_source_merging_strategy: yamlex\n")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("pillar_source_merging_strategy").hasMessageContaining("smart, recurse, aggregate");
        assertThatThrownBy(() -> load("pillar_roots: {base: [relative/dir]}\n")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("pillar_roots").hasMessageContaining("absolute folders");
    }

    @Test
    void daemonAndSupervisionKeysAreReadWithSaltsNames() throws IOException {
        MasterConfig master = load("""
                log_level: info
                log_level_logfile: debug
                pidfile: /run/m.pid
                graceful_shutdown_timeout: 3
                log_rotate_max_bytes: 1048576
                log_rotate_backup_count: 2
                component_restart_max: 3
                component_restart_window: 10
                component_restart_forever: yes
                presence_events: true
                """);
        assertThat(master.daemon()).isEqualTo(new DaemonConfig(Path.of("/run/m.pid"), 3, "debug", DaemonConfig.DEFAULT_LOG_FMT, 1_048_576, 2));
        assertThat(master.supervision()).isEqualTo(new MasterConfig.Supervision(3, 10, true));
        assertThat(master.presenceEvents()).isTrue();
    }

    @Test
    void aPythonLogFormatIsRefusedWithTheExpectedForm() {
        assertThatThrownBy(() -> load("log_fmt_logfile: '%(asctime)s %(message)s'\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("log_fmt_logfile")
                .hasMessageContaining("logback pattern");
    }

    @Test
    void rootDirPrefixesEveryPath() throws IOException {
        Path sandbox = dir.resolve("sb");
        MasterConfig master = load("root_dir: " + sandbox + "\ncachedir: cache\nsock_dir: " + sandbox + "/run\n");
        assertThat(master.rootDir()).isEqualTo(sandbox);
        assertThat(master.pkiDir()).isEqualTo(sandbox.resolve("etc/jsalt/pki/master"));
        assertThat(master.cachedir()).isEqualTo(sandbox.resolve("cache"));
        assertThat(master.sockDir()).isEqualTo(sandbox.resolve("run"));
        assertThat(master.logFile()).isEqualTo(sandbox.resolve("var/log/jsalt/master"));
    }

    @Test
    void pathEscapingTheRootIsRefusedNamingTheKey() throws IOException {
        Files.writeString(dir.resolve("master"), "root_dir: " + dir + "\npki_dir: /etc/../../../etc/shadow-keys\n");
        assertThatThrownBy(() -> MasterConfig.load(dir))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(dir.resolve("master") + ": pki_dir: expected a path that stays inside root_dir");
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "interface          | 10.0.0.256      | an IPv4 address, an IPv6 address or a host name",
        "interface          | 'not a host'    | an IPv4 address, an IPv6 address or a host name",
        "interface          | [a, b]          | an IPv4 address, an IPv6 address or a host name",
        "publish_port       | abc             | an integer 1..65535",
        "publish_port       | 0               | an integer 1..65535",
        "ret_port           | 65536           | an integer 1..65535",
        "ret_port           | 4505            | a port other than publish_port (4505)",
        "worker_threads     | 0               | an integer 1..1024",
        "worker_threads     | 2000            | an integer 1..1024",
        "root_dir           | \"\"              | an absolute or relative path",
        "pki_dir            | 7               | a string (quote it)",
        "cachedir           | \"\"              | a path",
        "log_level          | verbose         | one of all, garbage, trace, debug, profile, info, warning, error, critical, quiet",
        "log_level          | 3               | one of all, garbage, trace, debug, profile, info, warning, error, critical, quiet",
        "auto_accept        | maybe           | true or false (yes/no accepted)",
        "open_mode          | 1               | true or false (yes/no accepted)",
        "max_minions        | -1              | an integer >= 0",
        "timeout            | 0               | an integer 1..86400",
        "timeout            | 2.5             | an integer 1..86400",
        "keep_jobs_seconds  | -5              | an integer >= 0",
        "publish_session    | 0               | an integer >= 1",
        "rotate_aes_key     | sometimes       | true or false (yes/no accepted)",
        "require_minion_sign_messages | 0     | true or false (yes/no accepted)",
        "zmq_filtering      | [true]          | true or false (yes/no accepted)",
        "loop_interval      | 0               | an integer 1..86400",
        "sign_pub_messages  | \"null\"          | true or false (yes/no accepted)",
        "gather_job_timeout | 86401           | an integer 1..86400",
        "master_job_cache   | local_cache     | one of sqlite, memory, postgres",
        "master_job_cache   | 1               | one of sqlite, memory, postgres",
    })
    void badValueIsRefusedNamingFileKeyAndExpectedForm(String key, String written, String expected)
            throws IOException {
        Files.writeString(dir.resolve("master"), key + ": " + written + "\n");
        assertThatThrownBy(() -> MasterConfig.load(dir))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(dir.resolve("master") + ": " + key + ": expected " + expected + ", got ")
                .satisfies(e -> assertThat(((ConfigException) e).file()).isEqualTo(dir.resolve("master")));
    }

    @Test
    void equalPortsBlameTheKeyTheFileSet() throws IOException {
        Files.writeString(dir.resolve("master"), "publish_port: 4506\n");
        assertThatThrownBy(() -> MasterConfig.load(dir))
                .hasMessage(dir.resolve("master") + ": publish_port: expected a port other than ret_port (4506), got 4506");
    }

    @Test
    void ipv6InterfaceAndHostNamesAreAccepted() throws IOException {
        assertThat(load("interface: '::'\n").interfaceAddress()).isEqualTo("::");
        assertThat(load("interface: salt.example.com\n").interfaceAddress()).isEqualTo("salt.example.com");
    }

    @Test
    void unknownKeysAreReportedNotFatal() throws IOException {
        Files.writeString(dir.resolve("master"), "ext_pillar: []\ntimeout: 9\nfoo: bar\n");
        ConfigFile file = ConfigFile.load(dir.resolve("master"));
        MasterConfig master = MasterConfig.from(file);
        assertThat(master.timeout()).isEqualTo(9);
        assertThat(master.configDir()).isEqualTo(dir.toAbsolutePath());
        assertThat(file.unknownKeys()).containsExactly("ext_pillar", "foo");
    }

    @Test
    void builderAppliesTheSameDefaultsAndValidation() {
        Path sandbox = dir.resolve("sb");
        MasterConfig master = MasterConfig.builder(sandbox).interfaceAddress("127.0.0.1").publishPort(20001)
                .retPort(20002).autoAccept(true).build();
        assertThat(master.rootDir()).isEqualTo(sandbox);
        assertThat(master.configDir()).isEqualTo(sandbox.resolve("etc/jsalt"));
        assertThat(master.pkiDir()).isEqualTo(sandbox.resolve("etc/jsalt/pki/master"));
        assertThat(master.publishPort()).isEqualTo(20001);
        assertThat(master.autoAccept()).isTrue();
        assertThat(master.workerThreads()).isEqualTo(5);
        assertThatThrownBy(() -> MasterConfig.builder(sandbox).workerThreads(0).build())
                .hasMessage("<MasterConfig.builder>: worker_threads: expected an integer 1..1024, got 0");
        assertThatThrownBy(() -> MasterConfig.builder(sandbox).set("publish_prot", 1).build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("publish_prot: expected a key MasterConfig knows");
    }

    @Test
    void nodegroupsAndFileRootsAreReadWithConfiguredFileRootsAsWritten() throws IOException {
        MasterConfig master = load("""
                root_dir: /tmp/sb
                nodegroups:
                  web: 'web* or G@role:web'
                  pair: [a, b]
                file_roots:
                  base: [/srv/jsalt, /srv/extra]
                  dev: /srv/dev
                file_buffer_size: 4096
                """);
        assertThat(master.nodegroups()).containsEntry("web", "web* or G@role:web").containsEntry("pair", List.of("a", "b"));
        // as Salt's: root_dir does not prefix file_roots, only the default is under it
        assertThat(master.fileRoots()).containsEntry("base", List.of(Path.of("/srv/jsalt"), Path.of("/srv/extra")))
                .containsEntry("dev", List.of(Path.of("/srv/dev")));
        assertThat(load("root_dir: /tmp/sb\n").fileRoots()).containsExactly(Map.entry("base", List.of(Path.of("/tmp/sb/srv/jsalt"))));
        assertThat(master.fileBufferSize()).isEqualTo(4096);
    }

    @Test
    void aRelativeFileRootIsRefusedNamingTheKey() {
        assertThatThrownBy(() -> load("file_roots: {base: [srv]}\n")).isInstanceOf(ConfigException.class).hasMessageContaining("file_roots");
    }

    @Test
    void abuseLimitsAreReadAndBounded() throws IOException {
        MasterConfig master = load("""
                max_pending_minions: 50
                pending_keys_per_minute: 10
                request_max_age: 60
                job_cache_max_returns_per_minion: 0
                """);
        assertThat(master.abuseLimits()).isEqualTo(new MasterConfig.AbuseLimits(50, 10, 60, 0));
        assertThatThrownBy(() -> load("pending_keys_per_minute: 0\n")).hasMessageContaining("pending_keys_per_minute");
    }
}
