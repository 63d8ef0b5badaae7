package io.jsalt.master.auth;

import io.jsalt.config.ConfigException;
import io.jsalt.config.ConfigFile;
import io.jsalt.config.EauthBackendOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code external_auth} and {@code token_expire} as the master reads them from its own config file (the
 * file jsalt-api reads too). Re-read whenever the file changes, so a user removed from {@code external_auth}
 * loses their rights at the next request without a restart. A file that no longer parses keeps nothing:
 * every eauth request is refused (logged) until it is fixed, rather than running on stale rights.
 */
public final class EauthSettings {
    private static final Logger log = LoggerFactory.getLogger(EauthSettings.class);
    public static final long DEFAULT_TOKEN_EXPIRE = 43_200;

    /**
     * What one reading of the file gave. {@code eventsForAll}: {@code eauth_events: all}, every live token
     * reads the whole event bus (salt-api's behaviour); by default ({@code own}) an eauth user sees the events
     * of their own jobs, and the rest only with the {@code @events} right.
     */
    public record Current(ExternalAuth externalAuth, long tokenExpire, boolean eventsForAll, LoginLimiter.Limits loginLimits,
            EauthBackendOptions backends) {
        static final Current NONE = new Current(new ExternalAuth(Map.of()), DEFAULT_TOKEN_EXPIRE, false, LoginLimiter.Limits.DEFAULTS,
                EauthBackendOptions.DEFAULTS);
    }

    private final Path file;
    private FileTime readAt;
    private long readSize = -1;
    private Current current = Current.NONE;

    /** @param configDir the master's {@code -c} folder (null: no eauth at all) */
    public EauthSettings(Path configDir) {
        this.file = configDir == null ? null : configDir.resolve("master");
    }

    /** Fixed settings, for tests and embedded masters. */
    public static EauthSettings fixed(Map<String, Object> externalAuth, long tokenExpire) {
        return fixed(externalAuth, tokenExpire, EauthBackendOptions.DEFAULTS);
    }

    /** Fixed settings with the backends' own options ({@code auth.pam.service}, {@code auth.ldap.*}). */
    public static EauthSettings fixed(Map<String, Object> externalAuth, long tokenExpire, EauthBackendOptions backends) {
        EauthSettings s = new EauthSettings(null);
        s.current = new Current(new ExternalAuth(externalAuth), tokenExpire, false, LoginLimiter.Limits.DEFAULTS, backends);
        return s;
    }

    public synchronized Current current() {
        if (file == null) {
            return current;
        }
        FileTime modified;
        long size;
        try {
            modified = Files.getLastModifiedTime(file);
            size = Files.size(file);
        } catch (IOException e) {
            current = Current.NONE; // no file: Salt's defaults, no external_auth
            readAt = null;
            return current;
        }
        if (!Objects.equals(modified, readAt) || size != readSize) {
            readAt = modified;
            readSize = size;
            current = read();
        }
        return current;
    }

    /** {@code eauth_events}: {@code own} (the default) or {@code all}. */
    public static boolean eventsForAll(ConfigFile config) {
        String value = config.string("eauth_events", "own");
        if (!value.equals("own") && !value.equals("all")) {
            throw config.refuse("eauth_events", "own or all");
        }
        return value.equals("all");
    }

    private Current read() {
        try {
            ConfigFile config = ConfigFile.load(file);
            return new Current(new ExternalAuth(config.map("external_auth")),
                    config.integer("token_expire", (int) DEFAULT_TOKEN_EXPIRE, 1, Integer.MAX_VALUE), eventsForAll(config),
                    new LoginLimiter.Limits(config.integer("eauth_login_failures", LoginLimiter.Limits.DEFAULTS.maxFailures(), 1, 1_000_000),
                            config.integer("eauth_login_window", (int) LoginLimiter.Limits.DEFAULTS.windowSeconds(), 1, 86_400)),
                    EauthBackendOptions.read(config));
        } catch (ConfigException | IllegalArgumentException e) {
            log.error("external_auth is unreadable, every eauth request is refused until it is fixed: {}", e.getMessage());
            return Current.NONE;
        }
    }
}
