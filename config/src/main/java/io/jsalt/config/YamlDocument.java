package io.jsalt.config;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.ConstructorException;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * Reads one YAML config file into an immutable map of top-level keys. Only YAML 1.2 core types come out
 * (strings, numbers, booleans, null, lists, mappings): snakeyaml-engine builds no arbitrary objects, so a
 * {@code !!python/object} tag copied from an old Salt file is refused rather than obeyed.
 */
final class YamlDocument {
    /** Far above any sane config file; keeps a wrong path (a log, an image) from being read whole. */
    static final int MAX_BYTES = 4 * 1024 * 1024;

    private YamlDocument() {
    }

    /** The top-level mapping of {@code file}; a missing file is an empty config, as Salt runs on defaults. */
    static Map<String, Object> read(Path file) {
        byte[] bytes;
        try {
            if (Files.isRegularFile(file) && Files.size(file) > MAX_BYTES) {
                throw new ConfigException(file, "file is larger than " + MAX_BYTES + " bytes: not a config file", null);
            }
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return Map.of();
        } catch (AccessDeniedException e) {
            throw new ConfigException(file, "cannot read the file: permission denied", e);
        } catch (IOException e) {
            String reason = e instanceof FileSystemException fse && fse.getReason() != null ? fse.getReason()
                    : e.getMessage();
            throw new ConfigException(file, "cannot read the file: " + reason, e);
        }
        return parse(file, bytes);
    }

    static Map<String, Object> parse(Path file, byte[] bytes) {
        Object document;
        try {
            document = new Load(settings(file)).loadFromInputStream(new ByteArrayInputStream(bytes));
        } catch (MarkedYamlEngineException e) {
            Mark mark = e.getProblemMark().or(e::getContextMark).orElse(null);
            // a constructor error is well-formed YAML asking for something refused (a tag, a repeated key)
            String kind = e instanceof ConstructorException ? "YAML refused: " : "YAML syntax error: ";
            String context = e.getContext() == null || e.getContext().isBlank() ? "" : " (" + e.getContext() + ")";
            String problem = kind + e.getProblem() + context;
            if (mark == null) {
                throw new ConfigException(file, problem, e);
            }
            throw new ConfigException(file, mark.getLine() + 1, mark.getColumn() + 1, problem, e);
        } catch (StackOverflowError e) {
            // snakeyaml's parser recurses per nesting level; a runaway [[[[... must not kill the daemon's start-up
            throw new ConfigException(file, "not valid YAML: nested too deeply", null);
        } catch (YamlEngineException e) {
            if (e.getCause() instanceof CharacterCodingException) {
                throw new ConfigException(file, "not UTF-8 text: a config file must be UTF-8", e);
            }
            throw new ConfigException(file, "not valid YAML: " + e.getMessage(), e);
        }
        if (document == null) {
            return Map.of();
        }
        if (!(document instanceof Map<?, ?> top)) {
            throw new ConfigException(file,
                    "expected a mapping of keys to values at the top level, got " + ConfigException.describe(document),
                    null);
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : top.entrySet()) {
            if (!(entry.getKey() instanceof String key)) {
                throw new ConfigException(file, String.valueOf(entry.getKey()), "a key that is a string",
                        entry.getKey());
            }
            try {
                values.put(key, freeze(entry.getValue()));
            } catch (RecursiveValueException e) {
                throw new ConfigException(file, key + ": a value that contains itself through an alias", e);
            }
        }
        return Collections.unmodifiableMap(values);
    }

    private static LoadSettings settings(Path file) {
        return LoadSettings.builder()
                .setLabel(file.toString())
                .setSchema(new CoreSchema())
                // PyYAML silently keeps the last of two equal keys; a typo that shadows a value is better refused
                .setAllowDuplicateKeys(false)
                .setAllowRecursiveKeys(false)
                // aliases to collections multiply the data (the "billion laughs"); config files hardly need any
                .setMaxAliasesForCollections(20)
                .setCodePointLimit(MAX_BYTES)
                .setUseMarks(true)
                .build();
    }

    /**
     * A deep, unmodifiable copy. YAML allows null values, so the null-hostile {@code Map.copyOf} cannot be
     * used; a node shared through an alias is copied once; an alias to an enclosing node is refused.
     */
    static Object freeze(Object value) {
        return new Freezer().freeze(value);
    }

    /** Thrown by the freezer on a node that contains itself; {@link #parse} adds the file. */
    static final class RecursiveValueException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RecursiveValueException() {
            super("a value contains itself through an alias", null, false, false);
        }
    }

    private static final class Freezer {
        private final Map<Object, Object> done = new IdentityHashMap<>();
        private final Set<Object> inProgress = Collections.newSetFromMap(new IdentityHashMap<>());

        Object freeze(Object value) {
            if (!(value instanceof Map<?, ?> || value instanceof Collection<?>)) {
                return value instanceof byte[] bytes ? bytes.clone() : value;
            }
            Object frozen = done.get(value);
            if (frozen != null) {
                return frozen;
            }
            if (!inProgress.add(value)) {
                throw new RecursiveValueException();
            }
            frozen = copy(value);
            inProgress.remove(value);
            done.put(value, frozen);
            return frozen;
        }

        private Object copy(Object value) {
            if (value instanceof Map<?, ?> map) {
                Map<Object, Object> copy = new LinkedHashMap<>();
                map.forEach((k, v) -> copy.put(k, freeze(v)));
                return Collections.unmodifiableMap(copy);
            }
            if (value instanceof Set<?> set) {
                Set<Object> copy = new LinkedHashSet<>();
                set.forEach(v -> copy.add(freeze(v)));
                return Collections.unmodifiableSet(copy);
            }
            List<Object> copy = new ArrayList<>();
            ((Collection<?>) value).forEach(v -> copy.add(freeze(v)));
            return Collections.unmodifiableList(copy);
        }
    }
}
