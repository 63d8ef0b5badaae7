package io.jsalt.config;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Builds a {@link MinionConfig} in code, under a root folder, as if the values had been written in a file:
 * the same defaults and validation apply, and a bad value fails naming its Salt key. An unknown key is a
 * programming error here, so it is refused rather than warned about. Cheap enough to build thousands.
 */
public final class MinionConfigBuilder {
    private static final Path LABEL = Path.of("<MinionConfig.builder>");

    private final Map<String, Object> values = new LinkedHashMap<>();
    private Path configDir;

    MinionConfigBuilder(Path rootDir) {
        Path root = rootDir.toAbsolutePath().normalize();
        values.put("root_dir", root.toString());
        configDir = RootDir.resolve(root, "/etc/jsalt");
    }

    /** Any key by its Salt name, with the value YAML would give (String, Integer, Double, Boolean, List, Map). */
    public MinionConfigBuilder set(String saltKey, Object value) {
        values.put(Objects.requireNonNull(saltKey, "saltKey"), value);
        return this;
    }

    /** The folder the config stands for; default {@code <root>/etc/jsalt}. */
    public MinionConfigBuilder configDir(Path dir) {
        configDir = dir.toAbsolutePath().normalize();
        return this;
    }

    /** Without one, the id is this host's name, as in a file without {@code id}. */
    public MinionConfigBuilder id(String id) {
        return set("id", id);
    }

    public MinionConfigBuilder master(String host) {
        return set("master", host);
    }

    public MinionConfigBuilder masterPort(int port) {
        return set("master_port", port);
    }

    public MinionConfigBuilder publishPort(int port) {
        return set("publish_port", port);
    }

    public MinionConfigBuilder pkiDir(String path) {
        return set("pki_dir", path);
    }

    public MinionConfigBuilder cachedir(String path) {
        return set("cachedir", path);
    }

    public MinionConfigBuilder logLevel(String level) {
        return set("log_level", level);
    }

    public MinionConfigBuilder acceptanceWaitTime(double seconds) {
        return set("acceptance_wait_time", seconds);
    }

    public MinionConfigBuilder acceptanceWaitTimeMax(double seconds) {
        return set("acceptance_wait_time_max", seconds);
    }

    public MinionConfigBuilder authTimeout(int seconds) {
        return set("auth_timeout", seconds);
    }

    public MinionConfigBuilder authTries(int tries) {
        return set("auth_tries", tries);
    }

    public MinionConfigBuilder masterFinger(String fingerprint) {
        return set("master_finger", fingerprint);
    }

    public MinionConfigBuilder randomReauthDelay(int seconds) {
        return set("random_reauth_delay", seconds);
    }

    public MinionConfigBuilder rejectedRetry(boolean retry) {
        return set("rejected_retry", retry);
    }

    public MinionConfigBuilder processCountMax(int jobs) {
        return set("process_count_max", jobs);
    }

    public MinionConfigBuilder grains(Map<String, ?> grains) {
        return set("grains", grains);
    }

    public MinionConfigBuilder returnRetryTimer(int seconds) {
        return set("return_retry_timer", seconds);
    }

    public MinionConfigBuilder returnRetryTimerMax(int seconds) {
        return set("return_retry_timer_max", seconds);
    }

    public MinionConfigBuilder reconDefault(int millis) {
        return set("recon_default", millis);
    }

    public MinionConfigBuilder reconMax(int millis) {
        return set("recon_max", millis);
    }

    public MinionConfigBuilder reconRandomize(boolean randomize) {
        return set("recon_randomize", randomize);
    }

    public MinionConfig build() {
        ConfigFile config = ConfigFile.of(LABEL, values);
        MinionConfig minion = MinionConfig.parse(config, configDir);
        List<String> unknown = config.unknownKeys();
        if (!unknown.isEmpty()) {
            throw config.refuse(unknown.get(0), "a key MinionConfig knows (unknown key)");
        }
        return minion;
    }
}
