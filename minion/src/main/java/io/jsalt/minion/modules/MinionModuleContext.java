package io.jsalt.minion.modules;

import io.jsalt.minion.grains.GrainsRefresh;
import io.jsalt.minion.pillar.FreshPillar;
import io.jsalt.modules.ModuleContext;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.GrainsFile;
import io.jsalt.modules.api.MasterFiles;
import io.jsalt.transport.target.InvalidTargetException;
import io.jsalt.transport.target.MinionFacts;
import io.jsalt.transport.target.TargetMatcher;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What module functions see of a running minion: grains that change with a refresh or a grains-file write,
 * the master's file server, the grains file, and a way to reload the modules. One context serves every
 * registry the minion builds, so a reload does not change what a function sees.
 */
final class MinionModuleContext implements ModuleContext {
    private final String minionId;
    private final Supplier<Map<String, Object>> grains;
    private final Map<String, Object> opts;
    private final Path cachedir;
    private final MasterFiles files;
    private final GrainsFile grainsFile;
    private final GrainsRefresh grainsRefresh;
    private final Runnable reload;
    private final Supplier<Map<String, Object>> pillar;
    private final FreshPillar compiled;

    /**
     * @param grainsRefresh what a grains write asks for afterwards
     * @param reload        rebuilds the modules; null when this context cannot (a one-shot registry)
     * @param compiled      asks the master to compile the pillar now; throws {@link CommandExecutionException}
     */
    MinionModuleContext(String minionId, Supplier<Map<String, Object>> grains, Map<String, Object> opts, Path cachedir,
            MasterFiles files, GrainsFile grainsFile, GrainsRefresh grainsRefresh, Runnable reload,
            Supplier<Map<String, Object>> pillar, FreshPillar compiled) {
        this.minionId = minionId;
        this.grains = grains;
        this.opts = Map.copyOf(opts);
        this.cachedir = cachedir;
        this.files = files;
        this.grainsFile = grainsFile;
        this.grainsRefresh = grainsRefresh;
        this.reload = reload;
        this.pillar = pillar;
        this.compiled = compiled;
    }

    @Override
    public Map<String, Object> pillar() {
        return pillar.get();
    }

    @Override
    public Map<String, Object> compilePillar(Map<String, Object> override, String saltenv, String pillarenv) {
        return compiled.fetch(override, saltenv, pillarenv);
    }

    /** The same matcher the minion checks publications with. */
    @Override
    public boolean targets(String matcher, Object expression, Map<String, Object> nodegroups) {
        try {
            return TargetMatcher.of(matcher, expression, nodegroups).matches(new MinionFacts(minionId, grains(), pillar()));
        } catch (InvalidTargetException e) {
            throw new CommandExecutionException(e.getMessage());
        }
    }

    @Override
    public String minionId() {
        return minionId;
    }

    @Override
    public Map<String, Object> grains() {
        return grains.get();
    }

    @Override
    public Map<String, Object> opts() {
        return opts;
    }

    @Override
    public Path cachedir() {
        return cachedir;
    }

    @Override
    public MasterFiles files() {
        return files;
    }

    @Override
    public Optional<GrainsFile> grainsFile() {
        return Optional.of(grainsFile);
    }

    @Override
    public void refreshGrains(boolean refreshPillar) {
        grainsRefresh.refresh(refreshPillar);
    }

    @Override
    public void reloadModules() {
        if (reload == null) {
            throw new CommandExecutionException("module reload is not available here");
        }
        reload.run();
    }
}
