package io.jsalt.config;

import java.util.Locale;
import java.util.Optional;

/** Salt's log levels, as {@code log_level} names them (lower case), from the chattiest to silence. */
public enum LogLevel {
    ALL, GARBAGE, TRACE, DEBUG, PROFILE, INFO, WARNING, ERROR, CRITICAL, QUIET;

    /** The name Salt uses in config files and on the command line. */
    public String saltName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The level named {@code name}, in any case. */
    public static Optional<LogLevel> parse(String name) {
        if (name == null) {
            return Optional.empty();
        }
        for (LogLevel level : values()) {
            if (level.saltName().equals(name.toLowerCase(Locale.ROOT))) {
                return Optional.of(level);
            }
        }
        return Optional.empty();
    }

    /** The level under {@code key}, in any case; anything else is refused with the list of Salt's levels. */
    public static LogLevel read(ConfigFile config, String key, LogLevel dflt) {
        String expected = "one of " + choices();
        String configured;
        try {
            configured = config.string(key, dflt.saltName());
        } catch (ConfigException e) {
            throw config.refuse(key, expected);
        }
        return parse(configured).orElseThrow(() -> config.refuse(key, expected));
    }

    /** The choices, for messages: "all, garbage, ..., quiet". */
    static String choices() {
        StringBuilder out = new StringBuilder();
        for (LogLevel level : values()) {
            out.append(out.length() == 0 ? "" : ", ").append(level.saltName());
        }
        return out.toString();
    }
}
