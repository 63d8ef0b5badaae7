package io.jsalt.config;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;

/**
 * One Salt-style YAML config file: a mapping of top-level keys, read through typed getters that refuse a
 * wrong type with the file and the key, and remember which keys were read so that the rest can be reported
 * as unknown. An absent key and a key written with no value ({@code key:}) both give the default.
 */
public final class ConfigFile {
    private final Path file;
    private final Map<String, Object> values;
    private final Set<String> read = ConcurrentHashMap.newKeySet();

    private ConfigFile(Path file, Map<String, Object> values) {
        this.file = file;
        this.values = values;
    }

    /**
     * Reads {@code file}. A missing file is an empty config (Salt runs on defaults); an unreadable file,
     * a YAML syntax error (with its line) or a top level that is not a mapping is a {@link ConfigException}.
     */
    public static ConfigFile load(Path file) {
        Objects.requireNonNull(file, "file");
        return new ConfigFile(file, YamlDocument.read(file));
    }

    /**
     * A config built in code from Salt key names and the values YAML would give (String, Integer, Double,
     * Boolean, List, Map). {@code label} stands for the file in messages, e.g. {@code <MinionConfig.builder>}.
     */
    public static ConfigFile of(Path label, Map<String, ?> values) {
        Objects.requireNonNull(label, "label");
        Map<String, Object> copy = new LinkedHashMap<>();
        try {
            values.forEach((key, value) -> copy.put(Objects.requireNonNull(key, "key"), YamlDocument.freeze(value)));
        } catch (YamlDocument.RecursiveValueException e) {
            throw new IllegalArgumentException("a config value contains itself", e);
        }
        return new ConfigFile(label, Collections.unmodifiableMap(copy));
    }

    public Path file() {
        return file;
    }

    /** The keys present in the file, in file order. */
    public Set<String> keys() {
        return values.keySet();
    }

    /** Every key of the file with its value as YAML read it (unmodifiable), for Salt's {@code config.values}. */
    public Map<String, Object> values() {
        return Collections.unmodifiableMap(values);
    }

    /** True when the key is present with a value (not absent, not written empty). */
    public boolean has(String key) {
        return values.get(key) != null;
    }

    public String string(String key, String dflt) {
        Object value = take(key);
        if (value == null) {
            return dflt;
        }
        if (value instanceof String s) {
            return s;
        }
        // YAML turns 001 into 1 and 1.10 into 1.1: a string key given a number would silently change
        throw refuse(key, value instanceof Number || value instanceof Boolean ? "a string (quote it)" : "a string",
                value);
    }

    public int integer(String key, int dflt, int min, int max) {
        Object value = take(key);
        if (value == null) {
            return dflt;
        }
        String expected = "an integer " + Ranges.describe(min, max);
        if (value instanceof Integer || value instanceof Long || value instanceof BigInteger) {
            BigInteger number = new BigInteger(value.toString());
            if (number.compareTo(BigInteger.valueOf(min)) >= 0 && number.compareTo(BigInteger.valueOf(max)) <= 0) {
                return number.intValue();
            }
        }
        throw refuse(key, expected, value);
    }

    /** An integer or a float. */
    public double number(String key, double dflt, double min, double max) {
        Object value = take(key);
        if (value == null) {
            return dflt;
        }
        if (value instanceof Number n && !(value instanceof BigInteger)) {
            double d = n.doubleValue();
            if (!Double.isNaN(d) && d >= min && d <= max) {
                return d;
            }
        }
        throw refuse(key, "a number " + Ranges.describe(min, max), value);
    }

    /** A number {@code > 0} and {@code <= max}: a wait of zero seconds would make a retry loop spin. */
    public double positiveNumber(String key, double dflt, double max) {
        Object value = take(key);
        if (value == null) {
            return dflt;
        }
        if (value instanceof Number n && !(value instanceof BigInteger)) {
            double d = n.doubleValue();
            if (d > 0 && d <= max) {
                return d;
            }
        }
        throw refuse(key, "a number > 0 and <= " + Ranges.plain(max), value);
    }

    /** A path placed under {@code rootDir} as Salt's prepend_root_dir does (see {@link RootDir}). */
    public Path path(String key, Path rootDir, String dflt) {
        return RootDir.resolve(this, key, rootDir, string(key, dflt));
    }

    /** A YAML boolean; the strings yes/no/on/off too, since Salt's YAML 1.1 reader takes them as booleans. */
    public boolean bool(String key, boolean dflt) {
        Object value = take(key);
        if (value == null) {
            return dflt;
        }
        if (value instanceof Boolean b) {
            return b;
        }
        if (value instanceof String s) {
            switch (s.toLowerCase(Locale.ROOT)) {
                case "true", "yes", "on" -> {
                    return true;
                }
                case "false", "no", "off" -> {
                    return false;
                }
                default -> {
                    // refused below
                }
            }
        }
        throw refuse(key, "true or false (yes/no accepted)", value);
    }

    /** A list of strings; a single string is a one-element list; absent is an empty list. */
    public List<String> stringList(String key) {
        Object value = take(key);
        if (value == null) {
            return List.of();
        }
        if (value instanceof String s) {
            return List.of(s);
        }
        if (value instanceof Collection<?> items && items.stream().allMatch(String.class::isInstance)) {
            List<String> list = new ArrayList<>(items.size());
            items.forEach(item -> list.add((String) item));
            return Collections.unmodifiableList(list);
        }
        throw refuse(key, "a string or a list of strings", value);
    }

    /** A mapping with string keys (values as YAML gives them, unmodifiable); absent is an empty map. */
    public Map<String, Object> map(String key) {
        Object value = take(key);
        if (value == null) {
            return Map.of();
        }
        if (value instanceof Map<?, ?> map && map.keySet().stream().allMatch(String.class::isInstance)) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put((String) k, v));
            return Collections.unmodifiableMap(copy);
        }
        throw refuse(key, "a mapping with string keys", value);
    }

    /** Keys present in the file but never read through a getter, in file order. */
    public List<String> unknownKeys() {
        return values.keySet().stream().filter(key -> !read.contains(key)).toList();
    }

    /** Logs one WARN per unknown key; Salt's files carry many keys jsalt has no use for, so they are not errors. */
    public void warnUnknownKeys(Logger log) {
        for (String key : unknownKeys()) {
            log.warn("unknown configuration key '{}' in {}: ignored", key, file);
        }
    }

    /**
     * The exception for a value that passed its getter but fails a check spanning several values
     * (two ports that must differ), showing the value as written.
     */
    public ConfigException refuse(String key, String expected) {
        return refuse(key, expected, values.get(key));
    }

    private ConfigException refuse(String key, String expected, Object got) {
        return new ConfigException(file, key, expected, got);
    }

    private Object take(String key) {
        Objects.requireNonNull(key, "key");
        read.add(key);
        return values.get(key);
    }
}
