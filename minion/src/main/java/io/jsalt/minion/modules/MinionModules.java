package io.jsalt.minion.modules;

import io.jsalt.config.MinionConfig;
import io.jsalt.minion.grains.GrainsRefresh;
import io.jsalt.minion.grains.MinionGrains;
import io.jsalt.minion.pillar.FreshPillar;
import io.jsalt.modules.ModuleContext;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.MasterFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A minion's functions: the built-in modules, the minion's own resident modules (saltutil), then the custom
 * module jars synced into {@code extension_modules/modules/} (built-ins and residents win a name clash).
 * {@link #reload} builds a new registry and swaps it in atomically: jobs already running keep the registry
 * they started with, and a replaced registry's jar class loaders are closed when its last job ends.
 */
public final class MinionModules implements ModuleSource, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MinionModules.class);

    private final Path jarDir;
    private final List<ExecutionModule> residents;
    private final ModuleContext context;
    private Generation current;
    private boolean closed;

    /**
     * @param residents modules added to every registry before the jars (they may hold minion services)
     */
    public MinionModules(MinionConfig config, MinionGrains grains, MasterFiles files, List<ExecutionModule> residents) {
        this(config, grains, files, residents, GrainsRefresh.LOCAL);
    }

    /**
     * @param residents     modules added to every registry before the jars (they may hold minion services)
     * @param grainsRefresh what a grains write asks for afterwards (the running minion tells the master)
     */
    public MinionModules(MinionConfig config, MinionGrains grains, MasterFiles files, List<ExecutionModule> residents,
            GrainsRefresh grainsRefresh) {
        this(config, grains, files, residents, grainsRefresh, Map::of, (override, saltenv, pillarenv) -> Map.of());
    }

    /**
     * @param residents     modules added to every registry before the jars (they may hold minion services)
     * @param grainsRefresh what a grains write asks for afterwards (the running minion tells the master)
     * @param pillar        the minion's pillar in memory, which functions see through their context
     * @param compiled      a pillar the master compiles now, which every state run asks for
     */
    public MinionModules(MinionConfig config, MinionGrains grains, MasterFiles files, List<ExecutionModule> residents,
            GrainsRefresh grainsRefresh, java.util.function.Supplier<Map<String, Object>> pillar, FreshPillar compiled) {
        this.jarDir = jarDir(config);
        this.residents = List.copyOf(residents);
        this.context = new MinionModuleContext(config.id(), grains, opts(config), config.cachedir(), files, grains.file(),
                grainsRefresh, this::reload, pillar, compiled);
        this.current = new Generation(build());
    }

    /**
     * A one-shot registry for minion {@code config} (jsalt-call): built-ins and extension jars, with grains
     * that are core grains, then the grains file, then the config's grains. It cannot reload.
     */
    public static ModuleRegistry build(MinionConfig config, MasterFiles files) {
        return build(config, files, Map::of, (override, saltenv, pillarenv) -> Map.of());
    }

    /**
     * A one-shot registry as {@link #build(MinionConfig, MasterFiles)}, whose functions see {@code pillar} and whose
     * state runs ask for {@code compiled} (a jsalt-call that speaks to the master).
     */
    public static ModuleRegistry build(MinionConfig config, MasterFiles files,
            java.util.function.Supplier<Map<String, Object>> pillar, FreshPillar compiled) {
        MinionGrains grains = MinionGrains.of(config.id(), config.grainsFile(), config.grains());
        ModuleContext context = new MinionModuleContext(config.id(), grains, opts(config), config.cachedir(), files,
                grains.file(), GrainsRefresh.LOCAL, null, pillar, compiled);
        ModuleRegistry.Builder builder = ModuleRegistry.builder(context).addDiscovered(ModuleRegistry.class.getClassLoader());
        return addJars(builder, jarDir(config)).build();
    }

    /** Salt keeps synced execution modules in {@code extension_modules/modules}. */
    public static Path jarDir(MinionConfig config) {
        return config.extensionModules().resolve("modules");
    }

    /** The registry new jobs get now. */
    public synchronized ModuleRegistry current() {
        return current.registry;
    }

    @Override
    public synchronized Lease acquire() {
        Generation generation = current;
        generation.users++;
        return new Lease() {
            private boolean released;

            @Override
            public ModuleRegistry registry() {
                return generation.registry;
            }

            @Override
            public void close() {
                synchronized (MinionModules.this) {
                    if (!released) {
                        released = true;
                        generation.users--;
                        closeIfUnused(generation);
                    }
                }
            }
        };
    }

    /**
     * Builds the registry again from the built-ins, the residents and the jars now in the extension folder,
     * and makes it the one new jobs get (Salt's {@code saltutil.refresh_modules}).
     */
    public void reload() {
        ModuleRegistry fresh = build(); // outside the lock: opening jars takes a while, jobs keep starting
        synchronized (this) {
            if (closed) {
                fresh.close();
                return;
            }
            Generation old = current;
            current = new Generation(fresh);
            old.retired = true;
            closeIfUnused(old);
        }
        log.info("modules reloaded: {} functions", fresh.functionNames().size());
    }

    private ModuleRegistry build() {
        ModuleRegistry.Builder builder = ModuleRegistry.builder(context).addDiscovered(ModuleRegistry.class.getClassLoader());
        residents.forEach(builder::addModule);
        return addJars(builder, jarDir).build();
    }

    /**
     * The registry skips a bad module by itself; this is the last guard, so that nothing about the synced jars
     * (a jar that breaks the class loader itself, say) can stop the minion's start or a reload.
     */
    private static ModuleRegistry.Builder addJars(ModuleRegistry.Builder builder, Path dir) {
        try {
            builder.addJars(jars(dir));
        } catch (RuntimeException | LinkageError e) {
            log.error("skipping the extension modules in {}: {}", dir, e.toString(), e);
        }
        return builder;
    }

    private static void closeIfUnused(Generation generation) {
        if (generation.retired && generation.users == 0) {
            generation.registry.close();
        }
    }

    /** The {@code *.jar} files directly in {@code dir}, by name, so every build sees them in one order. */
    static List<Path> jars(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".jar") && Files.isRegularFile(p)).sorted().toList();
        } catch (IOException e) {
            log.error("cannot list the extension modules in {}: {}", dir, e.toString());
            return List.of();
        }
    }

    private static Map<String, Object> opts(MinionConfig config) {
        Map<String, Object> opts = new LinkedHashMap<>();
        opts.put("id", config.id());
        opts.put("master", config.master());
        opts.put("master_port", config.masterPort());
        opts.put("cachedir", config.cachedir().toString());
        opts.put("extension_modules", config.extensionModules().toString());
        opts.put("process_count_max", config.processCountMax());
        opts.put("cmd_safe", config.cmdSafe());
        return opts;
    }

    @Override
    public synchronized void close() {
        closed = true;
        current.retired = true;
        closeIfUnused(current);
    }

    /** One registry and the jobs that hold it. Guarded by the MinionModules lock. */
    private static final class Generation {
        final ModuleRegistry registry;
        int users;
        boolean retired;

        Generation(ModuleRegistry registry) {
            this.registry = registry;
        }
    }
}
