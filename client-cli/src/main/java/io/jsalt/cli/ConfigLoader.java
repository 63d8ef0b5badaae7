package io.jsalt.cli;

import io.jsalt.config.ConfigException;
import io.jsalt.config.MasterConfig;
import io.jsalt.config.MinionConfig;
import java.nio.file.Files;
import java.nio.file.Path;

/** Loads a config folder for a tool, turning every problem into a CliException with EX_CONFIG. */
public final class ConfigLoader {
    public static final String DEFAULT_DIR = "/etc/jsalt";

    private ConfigLoader() {}

    public static MasterConfig master(Path dir) {
        requireDir(dir);
        try {
            return MasterConfig.load(dir);
        } catch (ConfigException e) {
            throw new CliException(ExitCode.CONFIG, e.getMessage());
        }
    }

    public static MinionConfig minion(Path dir) {
        requireDir(dir);
        try {
            return MinionConfig.load(dir);
        } catch (ConfigException e) {
            throw new CliException(ExitCode.CONFIG, e.getMessage());
        }
    }

    private static void requireDir(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new CliException(ExitCode.CONFIG, "configuration folder " + dir + " does not exist (use -c DIR)");
        }
    }
}
