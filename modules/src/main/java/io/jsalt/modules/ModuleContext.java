package io.jsalt.modules;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.GrainsFile;
import io.jsalt.modules.api.MasterFiles;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What a module function may know about the minion it runs on (Salt's {@code __grains__},
 * {@code __opts__}). A function receives it by declaring a parameter of this type.
 */
public interface ModuleContext {

    /** The minion's id. */
    String minionId();

    /** The minion's grains: core grains with the static grains of its config on top. */
    Map<String, Object> grains();

    /** The minion's configuration, with Salt's key names. */
    Map<String, Object> opts();

    /**
     * The minion's pillar as it holds it in memory (Salt's {@code __pillar__}): what the master compiled for it at the
     * last sign-in or pillar refresh; empty where there is none (a {@code --local} run, tests).
     */
    default Map<String, Object> pillar() {
        return Map.of();
    }

    /**
     * The pillar the master compiles for this minion now, as every Salt state run asks for it ({@code State} →
     * {@code _gather_pillar}): a {@code _pillar} request with the minion's grains, {@code override} (Salt's
     * {@code pillar_override}), {@code saltenv} and {@code pillarenv}. A context without a master (a {@code --local}
     * run, tests) gives the pillar it holds.
     *
     * @param saltenv   the run's saltenv, or null
     * @param pillarenv the run's pillarenv, or null
     * @throws CommandExecutionException when no master answers or the master refuses: a state run must not render
     *                                   with a pillar it did not get
     */
    default Map<String, Object> compilePillar(Map<String, Object> override, String saltenv, String pillarenv) {
        return pillar();
    }

    /**
     * Whether this minion is what {@code expression} targets with Salt's matcher {@code matcher} ({@code glob},
     * {@code pcre}, {@code list}, {@code grain}, {@code grain_pcre}, {@code pillar}, {@code pillar_pcre},
     * {@code ipcidr}, {@code compound}, {@code nodegroup}), judged by its own id, grains and pillar exactly as it
     * judges a publication (Salt's {@code confirm_top} for top files uses the same matchers).
     *
     * @param nodegroups what {@code nodegroup} and {@code N@} expand from (Salt's highstate takes the master's)
     * @throws CommandExecutionException for an unknown matcher, a malformed expression, or a context that cannot match
     */
    default boolean targets(String matcher, Object expression, Map<String, Object> nodegroups) {
        throw new CommandExecutionException("target matching is not available here");
    }

    /** The minion's cache directory, for modules that keep files between jobs. */
    Path cachedir();

    /** The master's file server; {@link MasterFiles#NONE} when there is no master (a {@code --local} run). */
    default MasterFiles files() {
        return MasterFiles.NONE;
    }

    /** The minion's grains file, for {@code grains.setval} and friends; empty when this context has none. */
    default Optional<GrainsFile> grainsFile() {
        return Optional.empty();
    }

    /**
     * Called after a grains write, as Salt's grains module calls {@code saltutil.refresh_grains}: the minion
     * re-reads its grains and, with {@code refreshPillar}, sends them to the master (which then targets by the
     * new values). Nothing happens where there is no minion (Salt skips it for a local call too).
     */
    default void refreshGrains(boolean refreshPillar) {
    }

    /**
     * Rebuilds the minion's function registry (Salt's {@code sys.reload_modules}), so that newly synced
     * module jars become callable by the next job.
     *
     * @throws CommandExecutionException when this context cannot reload
     */
    default void reloadModules() {
        throw new CommandExecutionException("module reload is not available here");
    }
}
