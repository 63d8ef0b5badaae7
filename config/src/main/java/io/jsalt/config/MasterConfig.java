package io.jsalt.config;

import io.jsalt.transport.RequestServerKind;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's settings, read from {@code <configDir>/master} with Salt's key names and defaults. Every path
 * is already placed under {@code root_dir}. Build one with {@link #load}, {@link #from} or {@link #builder}.
 *
 * @param configDir         the folder holding the {@code master} file ({@code -c DIR}); not moved under root_dir
 * @param interfaceAddress  {@code interface}: the address the publish and request ports bind to
 * @param publishPort       {@code publish_port}: the PUB socket minions subscribe to
 * @param retPort           {@code ret_port}: the ROUTER socket for auth, returns and CLI requests
 * @param workerThreads     {@code worker_threads}: MWorkers serving the request port
 * @param rootDir           {@code root_dir}, absolute
 * @param logLevel          {@code log_level}, one of Salt's level names in lower case (see {@link LogLevel})
 * @param maxMinions        {@code max_minions}: 0 for no limit
 * @param timeout           {@code timeout}: seconds the CLI waits for returns by default
 * @param keepJobsSeconds   {@code keep_jobs_seconds}: job cache retention; 0 keeps jobs forever, as in Salt
 * @param publishSession    {@code publish_session}: seconds between session (AES) key rotations
 * @param loopInterval      {@code loop_interval}: seconds between maintenance runs
 * @param gatherJobTimeout  {@code gather_job_timeout}: seconds to wait for saltutil.find_job replies
 * @param presenceEvents    {@code presence_events}: fire salt/presence/present and change events
 * @param daemon            pid file, graceful stop and log file settings
 * @param supervision       how the master restarts its components
 * @param masterJobCache    {@code master_job_cache}: where jobs and returns are kept, one of {@link #JOB_CACHES}
 * @param nodegroups        {@code nodegroups}: name to a compound target string or a list of minion ids
 * @param fileRoots         {@code file_roots}: saltenv to the folders the file server reads, in order
 * @param fileBufferSize    {@code file_buffer_size}: bytes per {@code _serve_file} chunk
 * @param requestPortLimits what the request port lets anyone who connects make it hold
 * @param abuseLimits       what a peer can make the master keep or redo (docs/security.md)
 * @param pillar            {@code pillar_roots} and how pillar sources merge (docs/pillar.md)
 * @param postgres          the database of {@code master_job_cache: postgres} (docs/multi-master.md)
 * @param stateOutput       how {@code jsalt} shows state runs by default ({@code state_output}, {@code state_verbose}, ...)
 */
public record MasterConfig(
        Path configDir,
        String interfaceAddress,
        int publishPort,
        int retPort,
        int workerThreads,
        Path rootDir,
        Path pkiDir,
        Path cachedir,
        Path sockDir,
        Path logFile,
        String logLevel,
        boolean autoAccept,
        boolean openMode,
        int maxMinions,
        int timeout,
        int keepJobsSeconds,
        int publishSession,
        boolean rotateAesKey,
        boolean requireMinionSignMessages,
        boolean zmqFiltering,
        int loopInterval,
        boolean signPubMessages,
        int gatherJobTimeout,
        boolean presenceEvents,
        DaemonConfig daemon,
        Supervision supervision,
        String masterJobCache,
        Map<String, Object> nodegroups,
        Map<String, List<Path>> fileRoots,
        int fileBufferSize,
        RequestPortLimits requestPortLimits,
        AbuseLimits abuseLimits,
        PillarSettings pillar,
        PostgresSettings postgres,
        StateOutputSettings stateOutput) {

    /**
     * Bounds on what clients of the request port make the master hold; anyone who can reach the port can
     * connect, before any key is checked. A frame whose header declares more than {@code max_request_size}
     * gets its connection dropped before anything is reserved; frames above 8 KiB are charged, from their
     * header until a worker takes them, to one budget of {@code max_inflight_request_bytes} shared by all
     * connections, and a frame that does not fit is refused (its request is never served; its client
     * retries as after a timeout).
     *
     * @param maxRequestSize          {@code max_request_size}: bytes, the largest request frame (default 16 MiB)
     * @param maxInflightRequestBytes {@code max_inflight_request_bytes}: bytes, at least max_request_size (default 64 MiB)
     * @param requestServer           {@code request_server}: which implementation serves the port, {@code native}
     *                                (jsalt's own ZMTP server, the default) or {@code jeromq}; both hold clients to
     *                                the same limits (a jsalt key: Salt has none)
     */
    public record RequestPortLimits(int maxRequestSize, int maxInflightRequestBytes, RequestServerKind requestServer) {
        public static final int DEFAULT_MAX_REQUEST_SIZE = 16 * 1_048_576;
        public static final int DEFAULT_MAX_INFLIGHT_REQUEST_BYTES = 64 * 1_048_576;
        /** Frames up to this size are not charged to the budget, so no limit may be below it. */
        public static final int MIN_REQUEST_SIZE = 8 * 1_024;
        public static final RequestServerKind DEFAULT_REQUEST_SERVER = RequestServerKind.NATIVE;

        public RequestPortLimits {
            Objects.requireNonNull(requestServer, "requestServer");
        }

        /** With the default {@code request_server}. */
        public RequestPortLimits(int maxRequestSize, int maxInflightRequestBytes) {
            this(maxRequestSize, maxInflightRequestBytes, DEFAULT_REQUEST_SERVER);
        }

        static RequestPortLimits read(ConfigFile config) {
            int maxRequest = config.integer("max_request_size", DEFAULT_MAX_REQUEST_SIZE, MIN_REQUEST_SIZE, Integer.MAX_VALUE);
            int inflight = config.integer("max_inflight_request_bytes", DEFAULT_MAX_INFLIGHT_REQUEST_BYTES,
                    MIN_REQUEST_SIZE, Integer.MAX_VALUE);
            if (inflight < maxRequest) {
                throw config.refuse("max_inflight_request_bytes",
                        "at least max_request_size (" + maxRequest + "), or no request of that size could ever be taken");
            }
            String server = config.string("request_server", DEFAULT_REQUEST_SERVER.configName());
            RequestServerKind kind = RequestServerKind.parse(server)
                    .orElseThrow(() -> config.refuse("request_server", "native or jeromq"));
            return new RequestPortLimits(maxRequest, inflight, kind);
        }
    }

    /**
     * What a peer can make the master keep or redo, each a count a hostile peer would otherwise choose.
     *
     * @param maxPendingMinions       {@code max_pending_minions}: keys waiting in {@code minions_pre}; 0 for no limit
     * @param pendingKeysPerMinute    {@code pending_keys_per_minute}: new pending keys taken per minute (a burst of as many)
     * @param requestMaxAgeSeconds    {@code request_max_age}: how old (or how far ahead of the master's clock) a
     *                                jsalt minion's stamped request may be
     * @param jobCacheMaxReturnsPerMinion {@code job_cache_max_returns_per_minion}: returns kept per minion; 0 for no limit
     */
    public record AbuseLimits(int maxPendingMinions, int pendingKeysPerMinute, int requestMaxAgeSeconds,
            int jobCacheMaxReturnsPerMinion) {
        /** The defaults, for code that builds a config by hand. */
        public static final AbuseLimits DEFAULTS = new AbuseLimits(1_000, 120, 300, 10_000);

        static AbuseLimits read(ConfigFile config) {
            return new AbuseLimits(config.integer("max_pending_minions", DEFAULTS.maxPendingMinions, 0, Integer.MAX_VALUE),
                    config.integer("pending_keys_per_minute", DEFAULTS.pendingKeysPerMinute, 1, 1_000_000),
                    config.integer("request_max_age", DEFAULTS.requestMaxAgeSeconds, 1, DAY),
                    config.integer("job_cache_max_returns_per_minion", DEFAULTS.jobCacheMaxReturnsPerMinion, 0, Integer.MAX_VALUE));
        }
    }

    /**
     * Restarts of a dead component: after {@code component_restart_max} restarts within
     * {@code component_restart_window} seconds the master says "restarting too fast" and, unless
     * {@code component_restart_forever}, exits non-zero with the reason.
     */
    public record Supervision(int restartMax, int restartWindowSeconds, boolean restartForever) {
        static Supervision read(ConfigFile config) {
            return new Supervision(config.integer("component_restart_max", 5, 1, 1_000),
                    config.integer("component_restart_window", 60, 1, DAY),
                    config.bool("component_restart_forever", false));
        }
    }

    /** The name of the file inside the config folder. */
    public static final String FILE_NAME = "master";
    private static final Logger LOG = LoggerFactory.getLogger(MasterConfig.class);
    private static final int DAY = 86_400;
    /**
     * The job caches jsalt has: {@code sqlite} (durable, in cachedir) first, as the default, and
     * {@code memory} (lost on restart), {@code postgres} (shared by several masters, docs/multi-master.md).
     * Salt's returner names (local_cache, ...) are not accepted.
     */
    public static final List<String> JOB_CACHES = List.of("sqlite", "memory", "postgres");

    public MasterConfig {
        Objects.requireNonNull(configDir, "configDir");
        Objects.requireNonNull(interfaceAddress, "interfaceAddress");
        Objects.requireNonNull(rootDir, "rootDir");
        Objects.requireNonNull(pkiDir, "pkiDir");
        Objects.requireNonNull(cachedir, "cachedir");
        Objects.requireNonNull(sockDir, "sockDir");
        Objects.requireNonNull(logFile, "logFile");
        Objects.requireNonNull(logLevel, "logLevel");
        Objects.requireNonNull(masterJobCache, "masterJobCache");
        Objects.requireNonNull(requestPortLimits, "requestPortLimits");
        nodegroups = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(nodegroups, "nodegroups")));
        fileRoots = Map.copyOf(Objects.requireNonNull(fileRoots, "fileRoots"));
        Objects.requireNonNull(abuseLimits, "abuseLimits");
        Objects.requireNonNull(pillar, "pillar");
        Objects.requireNonNull(postgres, "postgres");
        Objects.requireNonNull(stateOutput, "stateOutput");
    }

    /** Reads {@code configDir/master}; a missing file gives the defaults. Warns once per unknown key. */
    public static MasterConfig load(Path configDir) {
        Path dir = configDir.toAbsolutePath().normalize();
        return from(ConfigFile.load(dir.resolve(FILE_NAME)), dir);
    }

    /** The settings in {@code config}, whose file's folder is taken as the config folder. */
    public static MasterConfig from(ConfigFile config) {
        Path parent = config.file().toAbsolutePath().getParent();
        return from(config, parent == null ? Path.of("/") : parent);
    }

    static MasterConfig from(ConfigFile config, Path configDir) {
        MasterConfig master = parse(config, configDir);
        config.warnUnknownKeys(LOG);
        return master;
    }

    /** A builder over a root folder, for tests and benchmarks that need configs without files. */
    public static MasterConfigBuilder builder(Path rootDir) {
        return new MasterConfigBuilder(rootDir);
    }

    /** Reads every key jsalt knows, leaving unknown keys for the caller to report. */
    static MasterConfig parse(ConfigFile config, Path configDir) {
        Path root = RootDir.of(config);
        String interfaceAddress = HostAddress.read(config, "interface", "0.0.0.0");
        int publishPort = config.integer("publish_port", 4505, 1, 65_535);
        int retPort = config.integer("ret_port", 4506, 1, 65_535);
        Ports.requireDistinct(config, "publish_port", publishPort, "ret_port", retPort);
        String logLevel = LogLevel.read(config, "log_level", LogLevel.WARNING).saltName();
        // read by jsalt-api (io.jsalt.api.ApiConfig), which shares this file as salt-api does: known keys, not typos
        config.map("rest_cherrypy");
        config.map("external_auth");
        config.integer("token_expire", 43_200, 1, Integer.MAX_VALUE);
        config.string("api_pidfile", "");
        config.string("api_logfile", "");
        config.stringList("netapi_enable_clients");
        if (!List.of("own", "all").contains(config.string("eauth_events", "own"))) {
            throw config.refuse("eauth_events", "own or all"); // the master re-reads it (io.jsalt.master.auth.EauthSettings)
        }
        EauthBackendOptions.read(config); // auth.pam.service, auth.ldap.*: the master re-reads them at each login
        config.integer("eauth_login_failures", 10, 1, 1_000_000);
        config.integer("eauth_login_window", 60, 1, 86_400);
        return new MasterConfig(
                configDir,
                interfaceAddress,
                publishPort,
                retPort,
                config.integer("worker_threads", 5, 1, 1024),
                root,
                config.path("pki_dir", root, "/etc/jsalt/pki/master"),
                config.path("cachedir", root, "/var/cache/jsalt/master"),
                config.path("sock_dir", root, "/var/run/jsalt/master"),
                config.path("log_file", root, "/var/log/jsalt/master"),
                logLevel,
                config.bool("auto_accept", false),
                config.bool("open_mode", false),
                config.integer("max_minions", 0, 0, Integer.MAX_VALUE),
                config.integer("timeout", 5, 1, DAY),
                config.integer("keep_jobs_seconds", DAY, 0, Integer.MAX_VALUE),
                config.integer("publish_session", DAY, 1, Integer.MAX_VALUE),
                config.bool("rotate_aes_key", true),
                config.bool("require_minion_sign_messages", false),
                config.bool("zmq_filtering", false),
                config.integer("loop_interval", 60, 1, DAY),
                config.bool("sign_pub_messages", true),
                config.integer("gather_job_timeout", 10, 1, DAY),
                config.bool("presence_events", false),
                DaemonConfig.read(config, root, "/var/run/jsalt/jsalt-master.pid", logLevel),
                Supervision.read(config),
                jobCache(config),
                config.map("nodegroups"),
                FileRoots.read(config, root),
                config.integer("file_buffer_size", 262_144, 1_024, 64 * 1_048_576),
                RequestPortLimits.read(config),
                AbuseLimits.read(config),
                PillarSettings.read(config, root),
                PostgresSettings.read(config),
                StateOutputSettings.read(config));
    }

    /** {@code master_job_cache}, in any case; anything but a known cache is refused with the choices. */
    private static String jobCache(ConfigFile config) {
        String expected = "one of " + String.join(", ", JOB_CACHES);
        String configured;
        try {
            configured = config.string("master_job_cache", JOB_CACHES.get(0));
        } catch (ConfigException e) {
            throw config.refuse("master_job_cache", expected);
        }
        String name = configured.toLowerCase(Locale.ROOT);
        if (!JOB_CACHES.contains(name)) {
            throw config.refuse("master_job_cache", expected);
        }
        return name;
    }
}
