package io.jsalt.config;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Builds a {@link MasterConfig} in code, under a root folder, as if the values had been written in a file:
 * the same defaults and validation apply, and a bad value fails naming its Salt key. An unknown key is a
 * programming error here, so it is refused rather than warned about.
 */
public final class MasterConfigBuilder {
    private static final Path LABEL = Path.of("<MasterConfig.builder>");

    private final Map<String, Object> values = new LinkedHashMap<>();
    private Path configDir;

    MasterConfigBuilder(Path rootDir) {
        Path root = rootDir.toAbsolutePath().normalize();
        values.put("root_dir", root.toString());
        configDir = RootDir.resolve(root, "/etc/jsalt");
    }

    /** Any key by its Salt name, with the value YAML would give (String, Integer, Double, Boolean, List, Map). */
    public MasterConfigBuilder set(String saltKey, Object value) {
        values.put(Objects.requireNonNull(saltKey, "saltKey"), value);
        return this;
    }

    /** The folder the config stands for; default {@code <root>/etc/jsalt}. */
    public MasterConfigBuilder configDir(Path dir) {
        configDir = dir.toAbsolutePath().normalize();
        return this;
    }

    public MasterConfigBuilder interfaceAddress(String address) {
        return set("interface", address);
    }

    public MasterConfigBuilder publishPort(int port) {
        return set("publish_port", port);
    }

    public MasterConfigBuilder retPort(int port) {
        return set("ret_port", port);
    }

    public MasterConfigBuilder workerThreads(int threads) {
        return set("worker_threads", threads);
    }

    public MasterConfigBuilder autoAccept(boolean autoAccept) {
        return set("auto_accept", autoAccept);
    }

    public MasterConfigBuilder openMode(boolean openMode) {
        return set("open_mode", openMode);
    }

    public MasterConfigBuilder maxMinions(int max) {
        return set("max_minions", max);
    }

    public MasterConfigBuilder timeout(int seconds) {
        return set("timeout", seconds);
    }

    public MasterConfigBuilder logLevel(String level) {
        return set("log_level", level);
    }

    public MasterConfig build() {
        ConfigFile config = ConfigFile.of(LABEL, values);
        MasterConfig master = MasterConfig.parse(config, configDir);
        List<String> unknown = config.unknownKeys();
        if (!unknown.isEmpty()) {
            throw config.refuse(unknown.get(0), "a key MasterConfig knows (unknown key)");
        }
        return master;
    }
}
