package io.jsalt.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * How the master compiles each minion's pillar, with Salt's keys and defaults.
 *
 * @param roots             {@code pillar_roots}: saltenv to the folders holding its {@code top.sls} and pillar SLS
 *                          files, searched in order (default {@code base: [<root_dir>/srv/pillar]})
 * @param mergingStrategy   {@code pillar_source_merging_strategy}: one of {@link #STRATEGIES} (default {@code smart})
 * @param mergeLists        {@code pillar_merge_lists}: lists from several sources are joined instead of replaced
 *                          (default False)
 * @param safeRenderError   {@code pillar_safe_render_error}: a render error tells the minion only which SLS failed,
 *                          not why (default True)
 */
public record PillarSettings(Map<String, List<Path>> roots, String mergingStrategy, boolean mergeLists,
        boolean safeRenderError) {
    /** Salt's merging strategies jsalt has. */
    public static final List<String> STRATEGIES = List.of("smart", "recurse", "aggregate", "overwrite", "none");

    public PillarSettings {
        roots = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(Objects.requireNonNull(roots, "roots"))); // saltenv order matters
        if (!STRATEGIES.contains(mergingStrategy)) {
            throw new IllegalArgumentException("unknown pillar merging strategy: " + mergingStrategy);
        }
    }

    /** The defaults under {@code rootDir}. */
    public static PillarSettings defaults(Path rootDir) {
        return new PillarSettings(Map.of("base", List.of(RootDir.resolve(rootDir, "/srv/pillar"))), "smart", false, true);
    }

    static PillarSettings read(ConfigFile config, Path root) {
        String expected = "one of " + String.join(", ", STRATEGIES);
        String strategy;
        try {
            strategy = config.string("pillar_source_merging_strategy", "smart").toLowerCase(Locale.ROOT);
        } catch (ConfigException e) {
            throw config.refuse("pillar_source_merging_strategy", expected);
        }
        if (!STRATEGIES.contains(strategy)) {
            throw config.refuse("pillar_source_merging_strategy", expected);
        }
        return new PillarSettings(FileRoots.read(config, root, "pillar_roots", "/srv/pillar"), strategy,
                config.bool("pillar_merge_lists", false), config.bool("pillar_safe_render_error", true));
    }
}
