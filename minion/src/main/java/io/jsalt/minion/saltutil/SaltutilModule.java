package io.jsalt.minion.saltutil;

import io.jsalt.minion.jobs.RunningJob;
import io.jsalt.minion.jobs.RunningJobs;
import io.jsalt.modules.ModuleContext;
import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.KwArgs;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Salt's {@code saltutil} module, the part that manages the minion itself: its running jobs, its grains and
 * its modules. It holds the minion's services, so the minion adds it to every registry it builds; it is not
 * discovered like the built-ins (a {@code --local} call has no running jobs to manage).
 */
@SaltModule(name = "saltutil", doc = "Manage the minion itself: running jobs, grains, modules (Salt's saltutil).")
public final class SaltutilModule implements ExecutionModule {
    private static final int SIGKILL = 9;
    private static final int SIGTERM = 15;
    /** Salt's sync_all answers one list per kind of extension; jsalt syncs execution modules only. */
    private static final List<String> SYNC_KINDS = List.of("clouds", "beacons", "modules", "states", "sdb", "grains",
            "renderers", "returners", "output", "utils", "log_handlers", "executors", "proxymodules", "engines",
            "thorium", "serializers", "matchers");

    private final RunningJobs jobs;
    private final Runnable refreshGrains;
    private final Runnable refreshPillar;
    private final Path jarDir;
    private final JobSignals signals;

    /**
     * @param refreshGrains collects the grains again
     * @param refreshPillar sends the grains to the master ({@code _pillar})
     * @param jarDir        {@code extension_modules/modules}
     */
    public SaltutilModule(RunningJobs jobs, Runnable refreshGrains, Runnable refreshPillar, Path jarDir) {
        this.jobs = jobs;
        this.refreshGrains = refreshGrains;
        this.refreshPillar = refreshPillar;
        this.jarDir = jarDir;
        this.signals = new JobSignals();
    }

    @SaltFunction(doc = "Return the data on all running salt processes on the minion: one proc record per job.\n\n"
            + "CLI Example: salt '*' saltutil.running")
    public List<Map<String, Object>> running() {
        return jobs.list().stream().map(RunningJob::procData).toList();
    }

    @SaltFunction(doc = "Return the data for a specific job id that is currently running, {} when it is not.\n\n"
            + "CLI Example: salt '*' saltutil.find_job <job id>")
    public Map<String, Object> find_job(@Arg("jid") String jid) {
        return jobs.find(jid).map(RunningJob::procData).orElseGet(LinkedHashMap::new);
    }

    @SaltFunction(doc = "Sends a kill signal (SIGKILL 9) to the named salt job's process: its child processes are "
            + "killed and its function interrupted; it sends no return.\n\nCLI Example: salt '*' saltutil.kill_job <job id>")
    public String kill_job(@Arg("jid") String jid) {
        return signal_job(jid, SIGKILL);
    }

    @SaltFunction(doc = "Sends a termination signal (SIGTERM 15) to the named salt job's process: its child "
            + "processes get SIGTERM and its function is interrupted.\n\nCLI Example: salt '*' saltutil.term_job <job id>")
    public String term_job(@Arg("jid") String jid) {
        return signal_job(jid, SIGTERM);
    }

    @SaltFunction(doc = "Sends a signal to the named salt job's child processes. SIGKILL (9) and SIGTERM (15) also "
            + "end the job; other signals reach its children only. Returns '' when no such job runs.\n\n"
            + "CLI Example: salt '*' saltutil.signal_job <job id> 15")
    public String signal_job(@Arg("jid") String jid, @Arg("signal") int signal) {
        Optional<RunningJob> found = jobs.find(jid);
        if (found.isEmpty()) {
            return "";
        }
        RunningJob job = found.get();
        switch (signal) {
            case SIGKILL -> job.end(RunningJob.Ending.KILLED, false);
            case SIGTERM -> job.end(RunningJob.Ending.TERMINATED, true);
            default -> signals.send(signal, job.liveChildren());
        }
        // Salt's text, word for word; the pid is the minion's, which runs every job
        return "Signal " + signal + " sent to job " + jid + " at pid " + ProcessHandle.current().pid();
    }

    @SaltFunction(doc = "Refresh the minion's grains (core grains and the grains file) and send them to the master "
            + "unless refresh_pillar=False. Functions see the new grains at once: jsalt's grains are not copied into "
            + "modules, so no module reload is needed.\n\nCLI Example: salt '*' saltutil.refresh_grains")
    public boolean refresh_grains(@KwArgs("kwargs") Map<String, Object> kwargs) {
        Map<String, Object> rest = new LinkedHashMap<>(kwargs);
        Object refreshPillarArg = rest.remove("refresh_pillar");
        rest.keySet().removeIf(k -> k.startsWith("__"));
        if (!rest.isEmpty()) {
            throw new CommandExecutionException("The following keyword arguments are not valid: "
                    + String.join(", ", rest.keySet()));
        }
        refreshGrains.run();
        if (refreshPillarArg == null || !"false".equalsIgnoreCase(String.valueOf(refreshPillarArg))) {
            refreshPillar.run();
        }
        return true;
    }

    @SaltFunction(doc = "Fetch this minion's pillar from the master again (sending its grains with the request) and "
            + "keep it in memory: the next job sees it. Salt's wait, timeout and clean_cache are accepted and have no "
            + "effect: the request is always made before this returns, and there is no pillar cache on disk.\n\n"
            + "CLI Example: salt '*' saltutil.refresh_pillar")
    public boolean refresh_pillar(@Arg(value = "wait", defaultValue = "false") boolean wait,
                                  @Arg(value = "timeout", defaultValue = "30") double timeout,
                                  @Arg(value = "clean_cache", defaultValue = "true") boolean cleanCache) {
        refreshPillar.run();
        return true;
    }

    @SaltFunction(doc = "Reload the minion's modules, so that synced module jars become callable by the next job.\n\n"
            + "CLI Example: salt '*' saltutil.refresh_modules")
    public boolean refresh_modules(@KwArgs("kwargs") Map<String, Object> kwargs, ModuleContext context) {
        context.reloadModules();
        return true;
    }

    @SaltFunction(doc = "Sync execution modules (jars) from salt://_modules to extension_modules/modules on the "
            + "minion, then reload the modules unless refresh=False. Returns the new or changed ones, "
            + "['modules.<name>', ...].\n\nCLI Example: salt '*' saltutil.sync_modules saltenv=base,dev")
    public List<String> sync_modules(@Arg(value = "saltenv", defaultValue = Arg.NULL) Object saltenv,
                                     @Arg(value = "refresh", defaultValue = "true") boolean refresh,
                                     @Arg(value = "extmod_whitelist", defaultValue = Arg.NULL) Object whitelist,
                                     @Arg(value = "extmod_blacklist", defaultValue = Arg.NULL) Object blacklist,
                                     ModuleContext context) {
        List<String> synced = ModuleSync.sync(context.files(), ModuleSync.saltenvs(saltenv), jarDir,
                ModuleSync.names(whitelist), ModuleSync.names(blacklist));
        if (refresh) {
            context.reloadModules();
        }
        return synced;
    }

    @SaltFunction(doc = "Sync every kind of extension from the master; jsalt has execution modules only, so the "
            + "other lists stay empty. Reloads the modules unless refresh=False.\n\nCLI Example: salt '*' saltutil.sync_all")
    public Map<String, Object> sync_all(@Arg(value = "saltenv", defaultValue = Arg.NULL) Object saltenv,
                                        @Arg(value = "refresh", defaultValue = "true") boolean refresh,
                                        @Arg(value = "extmod_whitelist", defaultValue = Arg.NULL) Object whitelist,
                                        @Arg(value = "extmod_blacklist", defaultValue = Arg.NULL) Object blacklist,
                                        ModuleContext context) {
        Map<String, Object> ret = new LinkedHashMap<>();
        SYNC_KINDS.forEach(kind -> ret.put(kind, List.of()));
        ret.put("modules", sync_modules(saltenv, refresh, whitelist, blacklist, context));
        return ret;
    }
}
