package io.jsalt.minion.grains;

import io.jsalt.modules.api.GrainsFile;
import io.jsalt.modules.builtin.CoreGrains;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A minion's grains, as Salt layers them: core grains, then the grains file, then the {@code grains} of the
 * minion config (each layer wins over the one before, so a grain set in the config cannot be changed by
 * {@code grains.setval}, as in Salt). The current map is immutable and swapped whole, so a job reads one
 * consistent set while a refresh builds the next.
 */
public final class MinionGrains implements Supplier<Map<String, Object>> {
    private final Supplier<Map<String, Object>> core;
    private final YamlGrainsFile file;
    private final Map<String, Object> config;
    private final GrainsFile writeThrough;
    private volatile Map<String, Object> coreGrains;
    private volatile Map<String, Object> current;

    /**
     * @param core   collects the core grains (called now and on every {@link #refresh})
     * @param file   the grains file
     * @param config the static grains of the minion config
     */
    public MinionGrains(Supplier<Map<String, Object>> core, YamlGrainsFile file, Map<String, Object> config) {
        this.core = core;
        this.file = file;
        this.config = config == null ? Map.of() : config;
        this.writeThrough = new GrainsFile() {
            @Override
            public Map<String, Object> read() {
                return file.read();
            }

            @Override
            public void write(Map<String, Object> grains) {
                file.write(grains);
                reloadFile();
            }

            @Override
            public void update(UnaryOperator<Map<String, Object>> change) {
                file.update(change);
                reloadFile();
            }
        };
        refresh();
    }

    /** The grains of minion {@code id}: this host's core grains, then {@code grainsFile}, then {@code config}. */
    public static MinionGrains of(String id, Path grainsFile, Map<String, Object> config) {
        return new MinionGrains(() -> CoreGrains.collect(id), new YamlGrainsFile(grainsFile), config);
    }

    /** The grains now; an immutable map that a refresh replaces rather than changes. */
    @Override
    public Map<String, Object> get() {
        return current;
    }

    /** The grains file as modules see it: after a write, {@link #get()} includes what was written. */
    public GrainsFile file() {
        return writeThrough;
    }

    /** Collects the core grains again and re-reads the grains file (Salt's {@code saltutil.refresh_grains}). */
    public synchronized void refresh() {
        coreGrains = core.get();
        reloadFile();
    }

    /** Re-reads the grains file only: a write does not change the core grains. */
    public synchronized void reloadFile() {
        Map<String, Object> merged = new LinkedHashMap<>(coreGrains);
        merged.putAll(file.read());
        merged.putAll(config);
        current = Collections.unmodifiableMap(merged);
    }
}
