package io.jsalt.master.wheel;

import static io.jsalt.master.runner.Parameter.optional;

import io.jsalt.config.ConfigFile;
import io.jsalt.config.MasterConfig;
import io.jsalt.master.runner.Parameter.Type;
import io.jsalt.master.runner.RunnerException;
import io.jsalt.master.runner.RunnerFunction;
import io.jsalt.master.runner.RunnerModule;
import io.jsalt.master.runner.RunnerSignature;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Salt's small wheel modules about the master itself: {@code config.values} (the master's settings),
 * {@code minions.connected} (the accepted minions connected now) and {@code error.error} (a wheel call that
 * fails on request, for testing how clients show a failure).
 */
public final class MasterWheel implements RunnerModule {
    private final Supplier<MasterConfig> config;
    private final Supplier<List<String>> connected;

    /**
     * @param config    the master's settings now (they follow a reload)
     * @param connected the accepted minions connected to this master now, as manage.present finds them
     */
    public MasterWheel(Supplier<MasterConfig> config, Supplier<List<String>> connected) {
        this.config = config;
        this.connected = connected;
    }

    /** A failure {@code error.error} was asked for: its message is the name and message given. */
    static final class RequestedError extends RunnerException {
        RequestedError(String name, String message) {
            super(name + ": " + message);
        }
    }

    @Override
    public List<RunnerFunction> functions() {
        return List.of(
                new RunnerFunction(RunnerSignature.of("config.values"),
                        "Return the master's settings: every key of its config file, and the value jsalt uses for "
                                + "each key it knows.", a -> values()),
                new RunnerFunction(RunnerSignature.of("minions.connected"),
                        "Return the ids of the accepted minions connected to the master now.", a -> connected.get()),
                new RunnerFunction(RunnerSignature.of("error.error", optional("name", Type.STRING, null),
                        optional("message", Type.STRING, "")),
                        "Return {} without a name; with one, fail with that name and message.", a -> {
                            if (a.string("name") != null) {
                                throw new RequestedError(a.string("name"), a.string("message"));
                            }
                            return Map.of();
                        }));
    }

    /**
     * Salt's {@code config.values} reads the config file again and answers every setting: here the file's keys as
     * written, then the values jsalt is running with for the keys it knows (defaults included, paths under
     * root_dir), so a client reads the effective {@code file_roots}, {@code ret_port}... under Salt's names.
     */
    Map<String, Object> values() {
        MasterConfig c = config.get();
        Path file = c.configDir().resolve(MasterConfig.FILE_NAME);
        Map<String, Object> out = new LinkedHashMap<>(ConfigFile.load(file).values());
        out.put("conf_file", file.toString());
        out.put("interface", c.interfaceAddress());
        out.put("publish_port", c.publishPort());
        out.put("ret_port", c.retPort());
        out.put("worker_threads", c.workerThreads());
        out.put("root_dir", c.rootDir().toString());
        out.put("pki_dir", c.pkiDir().toString());
        out.put("cachedir", c.cachedir().toString());
        out.put("sock_dir", c.sockDir().toString());
        out.put("log_file", c.logFile().toString());
        out.put("log_level", c.logLevel());
        out.put("auto_accept", c.autoAccept());
        out.put("open_mode", c.openMode());
        out.put("max_minions", c.maxMinions());
        out.put("timeout", c.timeout());
        out.put("keep_jobs_seconds", c.keepJobsSeconds());
        out.put("publish_session", c.publishSession());
        out.put("loop_interval", c.loopInterval());
        out.put("gather_job_timeout", c.gatherJobTimeout());
        out.put("presence_events", c.presenceEvents());
        out.put("master_job_cache", c.masterJobCache());
        out.put("nodegroups", c.nodegroups());
        out.put("file_roots", roots(c.fileRoots()));
        out.put("pillar_roots", roots(c.pillar().roots()));
        out.put("file_buffer_size", c.fileBufferSize());
        return out;
    }

    private static Map<String, Object> roots(Map<String, List<Path>> roots) {
        Map<String, Object> out = new LinkedHashMap<>();
        roots.forEach((env, folders) -> out.put(env, folders.stream().map(Path::toString).toList()));
        return out;
    }
}
