package io.jsalt.config;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A minion's settings, read from {@code <configDir>/minion} with Salt's key names and defaults. Every path
 * is already placed under {@code root_dir}. Build one with {@link #load}, {@link #from}, or, for the many
 * minions a benchmark runs in one JVM, {@link #builder} and {@link #defaults}.
 *
 * @param configDir              the folder holding the {@code minion} file; not moved under root_dir
 * @param id                     {@code id}: explicit, or this host's name (see {@link MinionId#ofThisHost})
 * @param master                 the host of the first master of {@code master} (see {@code masters})
 * @param masterPort             the request port of that master: its {@code host:port}, else {@code master_port} (its ret_port)
 * @param publishPort            {@code publish_port}: the master's publish port
 * @param logLevel               {@code log_level}, one of Salt's level names in lower case
 * @param acceptanceWaitTime     {@code acceptance_wait_time}: seconds between sign-in attempts while pending
 * @param acceptanceWaitTimeMax  {@code acceptance_wait_time_max}, resolved: never below acceptanceWaitTime,
 *                               which is what 0 (the default) means in Salt; the wait grows up to this
 * @param authTimeout            {@code auth_timeout}: seconds to wait for a sign-in reply
 * @param authTries              {@code auth_tries}: sign-in attempts per try
 * @param masterFinger           {@code master_finger}: "" or the master key's sha256 fingerprint, lower case
 * @param randomReauthDelay      {@code random_reauth_delay}: up to this many seconds of jitter before re-auth
 * @param processCountMax        {@code process_count_max}: jobs running at once
 * @param grains                 {@code grains}: static grains, unmodifiable
 * @param daemon                 pid file, graceful stop and log file settings
 * @param schedule               {@code schedule}: functions to run periodically (name: {function, seconds, splay, args})
 * @param returnRetryTimer       {@code return_retry_timer}: seconds before resending an unanswered return
 * @param returnRetryTimerMax    {@code return_retry_timer_max}: upper bound of the random retry delay
 * @param reconDefault           {@code recon_default}: milliseconds before reconnecting to the master
 * @param reconMax               {@code recon_max}: milliseconds, the reconnect back-off's bound
 * @param extensionModules       {@code extension_modules}: where synced custom modules live; default cachedir/extmods
 * @param cmdSafe                {@code cmd_safe}: true runs {@code cmd.*} commands without a shell unless a call says
 *                               {@code python_shell=True}; false (the default) runs them through {@code /bin/sh -c},
 *                               as Salt runs every call made from its command line
 * @param frameLimits            the largest frames accepted from the master
 * @param requestIdleClose       {@code request_idle_close}: seconds the request connection to the master stays open
 *                               after its last request (0: closed after each request, as Salt's minion does)
 * @param supervision            {@code supervisor} and {@code supervisor_dir}: the programs this minion supervises
 * @param stateOutput            how {@code jsalt-call} shows state runs by default ({@code state_output}, {@code state_verbose}, ...)
 * @param masters                {@code master} as a list, {@code master_type} and the keys of Salt's multi-master
 */
public record MinionConfig(
        Path configDir,
        String id,
        String master,
        int masterPort,
        int publishPort,
        Path rootDir,
        Path pkiDir,
        Path cachedir,
        Path sockDir,
        Path logFile,
        String logLevel,
        double acceptanceWaitTime,
        double acceptanceWaitTimeMax,
        int authTimeout,
        int authTries,
        String masterFinger,
        int randomReauthDelay,
        boolean rejectedRetry,
        boolean minionSignMessages,
        boolean zmqFiltering,
        int processCountMax,
        Map<String, Object> grains,
        int returnRetryTimer,
        int returnRetryTimerMax,
        int reconDefault,
        int reconMax,
        boolean reconRandomize,
        DaemonConfig daemon,
        Map<String, Object> schedule,
        Path extensionModules,
        boolean cmdSafe,
        FrameLimits frameLimits,
        double requestIdleClose,
        Supervision supervision,
        StateOutputSettings stateOutput,
        Masters masters) {

    /**
     * The largest frames this minion accepts from its master (or from whoever stands in its place): a frame
     * whose header declares more gets the connection dropped before anything is reserved, and the minion
     * connects again.
     *
     * @param maxPublicationSize {@code max_publication_size}: bytes, the largest publication (a job; default
     *                           32 MiB, twice the master's default max_request_size, which bounds a job's arguments)
     * @param maxReplySize       {@code max_reply_size}: bytes, the largest reply to a request (default 16 MiB;
     *                           the master's replies are small except file chunks of its file_buffer_size, and pillar)
     */
    public record FrameLimits(int maxPublicationSize, int maxReplySize) {
        public static final int DEFAULT_MAX_PUBLICATION_SIZE = 32 * 1_048_576;
        public static final int DEFAULT_MAX_REPLY_SIZE = 16 * 1_048_576;
        /** Below this a sign-in reply (the master's public key and the encrypted session key) might not fit. */
        public static final int MIN_FRAME_SIZE = 64 * 1_024;

        static FrameLimits read(ConfigFile config) {
            return new FrameLimits(
                    config.integer("max_publication_size", DEFAULT_MAX_PUBLICATION_SIZE, MIN_FRAME_SIZE, Integer.MAX_VALUE),
                    config.integer("max_reply_size", DEFAULT_MAX_REPLY_SIZE, MIN_FRAME_SIZE, Integer.MAX_VALUE));
        }
    }

    /**
     * Where the programs this minion supervises are defined; the supervisor reads and checks the definitions.
     *
     * @param programs  {@code supervisor}: program name to its keys, with Supervisor's key names
     * @param dir       {@code supervisor_dir}: a folder of Supervisor's own ini files ({@code [program:x]}),
     *                  default {@code <config folder>/supervisor.d}
     * @param leaveOnStop {@code supervisor_on_stop}: {@code leave} (the default) keeps the programs running when
     *                  the minion stops, for the next minion to adopt; {@code stop} stops them as supervisord does
     */
    public record Supervision(Map<String, Object> programs, Path dir, boolean leaveOnStop) {
        public Supervision {
            programs = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(programs, "programs")));
            Objects.requireNonNull(dir, "dir");
        }

        public Supervision(Map<String, Object> programs, Path dir) {
            this(programs, dir, true);
        }

        static Supervision read(ConfigFile config, Path root, Path configDir) {
            // the default sits beside the config file, which root_dir does not move
            Path dir = config.has("supervisor_dir") ? config.path("supervisor_dir", root, "") : configDir.resolve("supervisor.d");
            String onStop = config.string("supervisor_on_stop", "leave");
            if (!onStop.equals("leave") && !onStop.equals("stop")) {
                throw new ConfigException(config.file(), "supervisor_on_stop", "leave or stop", onStop);
            }
            return new Supervision(config.map("supervisor"), dir, onStop.equals("leave"));
        }
    }

    /** The name of the file inside the config folder. */
    public static final String FILE_NAME = "minion";
    private static final Logger LOG = LoggerFactory.getLogger(MinionConfig.class);
    private static final Pattern SHA256_FINGERPRINT = Pattern.compile("([0-9a-f]{2}:){31}[0-9a-f]{2}");
    private static final int DAY = 86_400;
    /**
     * {@code request_idle_close}'s default, in seconds. An operator's commands come seconds apart: a connection
     * closed after 1 s idle (the earlier default) made each job's return open a new one first (a TCP connect and
     * the ZMTP handshake, then the close): a third of an idle-then-busy minion's CPU per {@code test.ping}
     * (docs/BENCHMARKS.md, session 13). The master's descriptor budget: two per minion with both connections
     * open, 20,000 for 10,000 minions, within the 100,000 of the packaged unit's LimitNOFILE.
     */
    public static final double DEFAULT_REQUEST_IDLE_CLOSE = 60;
    private static final int HOUR_MS = 3_600_000;
    private static final String DEFAULT_SOCK_DIR = "/var/run/jsalt/minion";

    public MinionConfig {
        Objects.requireNonNull(configDir, "configDir");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(master, "master");
        Objects.requireNonNull(rootDir, "rootDir");
        Objects.requireNonNull(pkiDir, "pkiDir");
        Objects.requireNonNull(cachedir, "cachedir");
        Objects.requireNonNull(sockDir, "sockDir");
        Objects.requireNonNull(logFile, "logFile");
        Objects.requireNonNull(logLevel, "logLevel");
        Objects.requireNonNull(masterFinger, "masterFinger");
        // grains may hold null values (a YAML "key:"), which Map.copyOf refuses
        grains = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(grains, "grains")));
        schedule = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(schedule, "schedule")));
        Objects.requireNonNull(daemon, "daemon");
        Objects.requireNonNull(extensionModules, "extensionModules");
        Objects.requireNonNull(frameLimits, "frameLimits");
        Objects.requireNonNull(supervision, "supervision");
        Objects.requireNonNull(stateOutput, "stateOutput");
        Objects.requireNonNull(masters, "masters");
    }

    /** Salt's minion grains file, {@code <configDir>/grains}: grains set by grains.setval and friends. */
    public Path grainsFile() {
        return configDir.resolve("grains");
    }

    /** Reads {@code configDir/minion}; a missing file gives the defaults. Warns once per unknown key. */
    public static MinionConfig load(Path configDir) {
        Path dir = configDir.toAbsolutePath().normalize();
        return from(ConfigFile.load(dir.resolve(FILE_NAME)), dir);
    }

    /** The settings in {@code config}, whose file's folder is taken as the config folder. */
    public static MinionConfig from(ConfigFile config) {
        Path parent = config.file().toAbsolutePath().getParent();
        return from(config, parent == null ? Path.of("/") : parent);
    }

    static MinionConfig from(ConfigFile config, Path configDir) {
        MinionConfig minion = parse(config, configDir);
        config.warnUnknownKeys(LOG);
        return minion;
    }

    /** A builder over a root folder, for tests and benchmarks that need many configs without files. */
    public static MinionConfigBuilder builder(Path rootDir) {
        return new MinionConfigBuilder(rootDir);
    }

    /** Salt's defaults under {@code rootDir}, with the given id. */
    public static MinionConfig defaults(Path rootDir, String id) {
        return builder(rootDir).id(id).build();
    }

    /** Reads every key jsalt knows, leaving unknown keys for the caller to report. */
    static MinionConfig parse(ConfigFile config, Path configDir) {
        Path root = RootDir.of(config);
        int masterPort = config.integer("master_port", 4506, 1, 65_535);
        int publishPort = config.integer("publish_port", 4505, 1, 65_535);
        Ports.requireDistinct(config, "publish_port", publishPort, "master_port", masterPort);
        double acceptanceWaitTime = config.positiveNumber("acceptance_wait_time", 10, DAY);
        double acceptanceWaitTimeMax = config.number("acceptance_wait_time_max", 0, 0, DAY);
        String logLevel = LogLevel.read(config, "log_level", LogLevel.WARNING).saltName();
        Path cachedir = config.path("cachedir", root, "/var/cache/jsalt/minion");
        Masters masters = Masters.read(config, masterPort);
        return new MinionConfig(
                configDir,
                id(config),
                masters.list().get(0).host(),
                masters.list().get(0).port(),
                publishPort,
                root,
                config.path("pki_dir", root, "/etc/jsalt/pki/minion"),
                cachedir,
                config.path("sock_dir", root, DEFAULT_SOCK_DIR),
                config.path("log_file", root, "/var/log/jsalt/minion"),
                logLevel,
                acceptanceWaitTime,
                Math.max(acceptanceWaitTimeMax, acceptanceWaitTime),
                config.integer("auth_timeout", 5, 1, DAY),
                config.integer("auth_tries", 7, 1, 10_000),
                masterFinger(config),
                config.integer("random_reauth_delay", 10, 0, DAY),
                config.bool("rejected_retry", false),
                config.bool("minion_sign_messages", true),
                config.bool("zmq_filtering", false),
                config.integer("process_count_max", 20, 1, 10_000),
                config.map("grains"),
                config.integer("return_retry_timer", 5, 1, DAY),
                config.integer("return_retry_timer_max", 10, 0, DAY),
                config.integer("recon_default", 1000, 1, HOUR_MS),
                config.integer("recon_max", 10_000, 0, HOUR_MS),
                config.bool("recon_randomize", true),
                // in sock_dir, so that several minions sharing a root_dir (a test, the demo) do not share a pid file
                DaemonConfig.read(config, root, config.string("sock_dir", DEFAULT_SOCK_DIR) + "/jsalt-minion.pid", logLevel),
                config.map("schedule"),
                config.path("extension_modules", root, cachedir.resolve("extmods").toString()),
                config.bool("cmd_safe", false),
                FrameLimits.read(config),
                config.number("request_idle_close", DEFAULT_REQUEST_IDLE_CLOSE, 0, DAY),
                Supervision.read(config, root, configDir),
                StateOutputSettings.read(config),
                masters);
    }

    private static String id(ConfigFile config) {
        String expected = "a minion id of 1 to 255 characters from A-Z a-z 0-9 . _ @ - (not starting with \".\")";
        String id;
        try {
            id = config.string("id", null);
        } catch (ConfigException e) {
            throw config.refuse("id", expected + " in quotes");
        }
        if (id == null) {
            return MinionId.ofThisHost();
        }
        if (!MinionId.isValid(id)) {
            throw config.refuse("id", expected);
        }
        return id;
    }

    /** Salt compares fingerprints case-sensitively after printing lower case; jsalt accepts either case. */
    private static String masterFinger(ConfigFile config) {
        String expected = "\"\" or a sha256 fingerprint of 32 hex pairs like \"4f:0a:...\"";
        String finger;
        try {
            finger = config.string("master_finger", "");
        } catch (ConfigException e) {
            throw config.refuse("master_finger", expected);
        }
        String lower = finger.trim().toLowerCase(Locale.ROOT);
        if (!lower.isEmpty() && !SHA256_FINGERPRINT.matcher(lower).matches()) {
            throw config.refuse("master_finger", expected);
        }
        return lower;
    }
}
