package io.jsalt.minion.grains;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.GrainsFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.schema.CoreSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Salt's minion grains file, {@code <configDir>/grains}: a YAML mapping of grains that {@code grains.setval}
 * and friends rewrite. Only YAML 1.2 core types are read, so nothing in the file can build objects. A write
 * replaces the file atomically: a reader sees the old or the new file, never half of one; an update holds one
 * lock from its read to its write. The minion's grains
 * re-read it after a write ({@link MinionGrains#file()}).
 */
public final class YamlGrainsFile implements GrainsFile {
    private static final Logger log = LoggerFactory.getLogger(YamlGrainsFile.class);
    /** Far above any real grains file; keeps a wrong file from being read whole. */
    private static final long MAX_BYTES = 4L * 1024 * 1024;

    private final Path file;
    private final Object writeLock = new Object();

    public YamlGrainsFile(Path file) {
        this.file = file;
    }

    public Path path() {
        return file;
    }

    /**
     * The file's mapping for the minion's grains; empty when it is absent or empty, and (logged) when it cannot
     * be read or is not a YAML mapping, so that a broken file does not stop the minion. Writers use
     * {@link #update}, whose read is strict.
     */
    @Override
    public Map<String, Object> read() {
        try {
            return readStrict();
        } catch (GrainsFileException e) {
            log.warn("ignoring grains file {}: {}", file, e.getMessage());
            return Map.of();
        }
    }

    /**
     * Reads, changes and writes the file under one lock, so concurrent writers do not lose each other's values.
     * The read is strict: only an absent file counts as empty; a file that cannot be read or parsed, or is too
     * large, fails the update and stays as it is (Salt's setvals: "Unable to read existing grains file").
     */
    @Override
    public void update(UnaryOperator<Map<String, Object>> change) {
        synchronized (writeLock) {
            Map<String, Object> current;
            try {
                current = readStrict();
            } catch (GrainsFileException e) {
                throw new CommandExecutionException("Unable to read existing grains file " + file + ": "
                        + e.getMessage());
            }
            write(change.apply(current));
        }
    }

    /** The file's mapping; empty when it is absent or empty. */
    private Map<String, Object> readStrict() {
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new GrainsFileException("larger than " + MAX_BYTES + " bytes");
            }
            return parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            return Map.of();
        } catch (IOException | YamlEngineException e) {
            throw new GrainsFileException(e.getMessage());
        }
    }

    @Override
    public void write(Map<String, Object> grains) {
        String yaml = grains == null || grains.isEmpty() ? "{}\n" : dump(grains);
        synchronized (writeLock) {
            try {
                Path dir = file.toAbsolutePath().getParent();
                Files.createDirectories(dir);
                Path tmp = Files.createTempFile(dir, ".grains", ".tmp");
                try {
                    Files.writeString(tmp, yaml, StandardCharsets.UTF_8);
                    move(tmp, file);
                } finally {
                    Files.deleteIfExists(tmp);
                }
            } catch (IOException e) {
                throw new CommandExecutionException("cannot write the grains file " + file + ": " + e.getMessage());
            }
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    static Map<String, Object> parse(String yaml) {
        Load load = new Load(LoadSettings.builder().setSchema(new CoreSchema()).setLabel("grains").build());
        Object doc = load.loadFromString(yaml);
        if (doc == null) {
            return Map.of();
        }
        if (!(doc instanceof Map<?, ?> map)) {
            throw new GrainsFileException("not a YAML mapping");
        }
        Map<String, Object> grains = new LinkedHashMap<>();
        map.forEach((k, v) -> grains.put(String.valueOf(k), v));
        return Collections.unmodifiableMap(grains);
    }

    static String dump(Map<String, Object> grains) {
        DumpSettings settings = DumpSettings.builder().setDefaultFlowStyle(FlowStyle.BLOCK)
                .setSchema(new CoreSchema()).build();
        return new Dump(settings).dumpToString(grains);
    }

    /** The file holds something other than a mapping of grains. */
    static final class GrainsFileException extends RuntimeException {
        GrainsFileException(String message) {
            super(message);
        }
    }
}
