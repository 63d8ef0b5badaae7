package io.jsalt.modules.builtin;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleContext;
import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.builtin.cmd.CommandLaunchException;
import io.jsalt.modules.builtin.cmd.CommandLine;
import io.jsalt.modules.builtin.cmd.CommandOutcome;
import io.jsalt.modules.builtin.cmd.CommandRunner;
import io.jsalt.modules.builtin.cmd.CommandSpec;
import io.jsalt.modules.builtin.cmd.ExecutablePath;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Salt's {@code cmd} module (cmdmod): run programs, with Salt's argument names and return shapes.
 *
 * <p>Commands run as argv (split like {@code shlex.split}) unless {@code python_shell=True}, which runs
 * {@code /bin/sh -c cmd}. Salt defaults to a shell for remote calls; jsalt does so only when the minion's
 * config says {@code cmd_safe: False}, Salt's own switch for it. {@code ignore_retcode} is accepted, as
 * in Salt, and changes nothing but Salt's logging.
 */
@SaltModule(name = "cmd", doc = "Execute commands on the minion (Salt's cmdmod).")
public final class CmdModule implements ExecutionModule {

    private static final Logger LOG = LoggerFactory.getLogger(CmdModule.class);
    private static final String DEFAULT_SHELL = "/bin/sh";

    @SaltFunction(doc = "Execute the passed command and return its output, stderr merged into stdout, trailing "
            + "whitespace stripped. The job's retcode is the command's exit code.\n\n"
            + "CLI Example: salt '*' cmd.run \"ls -l /var\" cwd=/tmp timeout=30")
    public CallResult run(@Arg("cmd") String cmd,
                          @Arg(value = "cwd", defaultValue = Arg.NULL) String cwd,
                          @Arg(value = "stdin", defaultValue = Arg.NULL) String stdin,
                          @Arg(value = "shell", defaultValue = Arg.NULL) String shell,
                          @Arg(value = "python_shell", defaultValue = Arg.NULL) Boolean pythonShell,
                          @Arg(value = "env", defaultValue = Arg.NULL) Object env,
                          @Arg(value = "rstrip", defaultValue = "true") boolean rstrip,
                          @Arg(value = "timeout", defaultValue = Arg.NULL) Double timeout,
                          @Arg(value = "ignore_retcode", defaultValue = "false") boolean ignoreRetcode,
                          ModuleContext context) {
        Options options = new Options(cmd, cwd, stdin, shell, pythonShell, env, timeout, context);
        return execute(options, true, outcome -> outcome.timedOut()
                ? timedOut(outcome.stdout(), timeout)
                : CallResult.withRetcode(strip(outcome.stdout(), rstrip), outcome.exitCode()),
                failure -> CallResult.failed("ERROR: " + failure.getMessage(), failure.exitCode()));
    }

    @SaltFunction(doc = "Like cmd.run, but through a shell by default (python_shell=True), so pipes, "
            + "redirections and variables work.\n\nCLI Example: salt '*' cmd.shell \"ls -l | wc -l\"")
    public CallResult shell(@Arg("cmd") String cmd,
                            @Arg(value = "cwd", defaultValue = Arg.NULL) String cwd,
                            @Arg(value = "stdin", defaultValue = Arg.NULL) String stdin,
                            @Arg(value = "shell", defaultValue = Arg.NULL) String shell,
                            @Arg(value = "python_shell", defaultValue = "true") boolean pythonShell,
                            @Arg(value = "env", defaultValue = Arg.NULL) Object env,
                            @Arg(value = "rstrip", defaultValue = "true") boolean rstrip,
                            @Arg(value = "timeout", defaultValue = Arg.NULL) Double timeout,
                            @Arg(value = "ignore_retcode", defaultValue = "false") boolean ignoreRetcode,
                            ModuleContext context) {
        return run(cmd, cwd, stdin, shell, pythonShell, env, rstrip, timeout, ignoreRetcode, context);
    }

    @SaltFunction(doc = "Execute the passed command and return a dict of pid, retcode, stdout and stderr. "
            + "The job's retcode is the command's exit code.\n\nCLI Example: salt '*' cmd.run_all \"ls -l /var\"")
    public CallResult run_all(@Arg("cmd") String cmd,
                              @Arg(value = "cwd", defaultValue = Arg.NULL) String cwd,
                              @Arg(value = "stdin", defaultValue = Arg.NULL) String stdin,
                              @Arg(value = "shell", defaultValue = Arg.NULL) String shell,
                              @Arg(value = "python_shell", defaultValue = Arg.NULL) Boolean pythonShell,
                              @Arg(value = "env", defaultValue = Arg.NULL) Object env,
                              @Arg(value = "rstrip", defaultValue = "true") boolean rstrip,
                              @Arg(value = "timeout", defaultValue = Arg.NULL) Double timeout,
                              @Arg(value = "ignore_retcode", defaultValue = "false") boolean ignoreRetcode,
                              ModuleContext context) {
        Options options = new Options(cmd, cwd, stdin, shell, pythonShell, env, timeout, context);
        return execute(options, false, outcome -> {
            if (outcome.timedOut()) {
                String stderr = join(strip(outcome.stderr(), rstrip), timeoutMessage(timeout));
                return CallResult.failed(runAll(outcome.pid(), 1, strip(outcome.stdout(), rstrip), stderr), 1);
            }
            return CallResult.withRetcode(runAll(outcome.pid(), outcome.exitCode(), strip(outcome.stdout(), rstrip),
                    strip(outcome.stderr(), rstrip)), outcome.exitCode());
        }, failure -> CallResult.failed(runAll(0, failure.exitCode(), "", "ERROR: " + failure.getMessage()),
                failure.exitCode()));
    }

    @SaltFunction(doc = "Execute a command and return only its standard output.\n\n"
            + "CLI Example: salt '*' cmd.run_stdout \"ls -l /var\"")
    public CallResult run_stdout(@Arg("cmd") String cmd,
                                 @Arg(value = "cwd", defaultValue = Arg.NULL) String cwd,
                                 @Arg(value = "stdin", defaultValue = Arg.NULL) String stdin,
                                 @Arg(value = "shell", defaultValue = Arg.NULL) String shell,
                                 @Arg(value = "python_shell", defaultValue = Arg.NULL) Boolean pythonShell,
                                 @Arg(value = "env", defaultValue = Arg.NULL) Object env,
                                 @Arg(value = "rstrip", defaultValue = "true") boolean rstrip,
                                 @Arg(value = "timeout", defaultValue = Arg.NULL) Double timeout,
                                 @Arg(value = "ignore_retcode", defaultValue = "false") boolean ignoreRetcode,
                                 ModuleContext context) {
        Options options = new Options(cmd, cwd, stdin, shell, pythonShell, env, timeout, context);
        return execute(options, false, outcome -> outcome.timedOut()
                ? timedOut(outcome.stdout(), timeout)
                : CallResult.withRetcode(strip(outcome.stdout(), rstrip), outcome.exitCode()),
                failure -> CallResult.failed("ERROR: " + failure.getMessage(), failure.exitCode()));
    }

    @SaltFunction(doc = "Execute a command and return only its standard error.\n\n"
            + "CLI Example: salt '*' cmd.run_stderr \"ls -l /nonexistent\"")
    public CallResult run_stderr(@Arg("cmd") String cmd,
                                 @Arg(value = "cwd", defaultValue = Arg.NULL) String cwd,
                                 @Arg(value = "stdin", defaultValue = Arg.NULL) String stdin,
                                 @Arg(value = "shell", defaultValue = Arg.NULL) String shell,
                                 @Arg(value = "python_shell", defaultValue = Arg.NULL) Boolean pythonShell,
                                 @Arg(value = "env", defaultValue = Arg.NULL) Object env,
                                 @Arg(value = "rstrip", defaultValue = "true") boolean rstrip,
                                 @Arg(value = "timeout", defaultValue = Arg.NULL) Double timeout,
                                 @Arg(value = "ignore_retcode", defaultValue = "false") boolean ignoreRetcode,
                                 ModuleContext context) {
        Options options = new Options(cmd, cwd, stdin, shell, pythonShell, env, timeout, context);
        return execute(options, false, outcome -> outcome.timedOut()
                ? timedOut(outcome.stderr(), timeout)
                : CallResult.withRetcode(strip(outcome.stderr(), rstrip), outcome.exitCode()),
                failure -> CallResult.failed("ERROR: " + failure.getMessage(), failure.exitCode()));
    }

    @SaltFunction(doc = "Execute a command and return its exit code, which is also the job's retcode.\n\n"
            + "CLI Example: salt '*' cmd.retcode \"test -f /etc/hosts\"")
    public CallResult retcode(@Arg("cmd") String cmd,
                              @Arg(value = "cwd", defaultValue = Arg.NULL) String cwd,
                              @Arg(value = "stdin", defaultValue = Arg.NULL) String stdin,
                              @Arg(value = "shell", defaultValue = Arg.NULL) String shell,
                              @Arg(value = "python_shell", defaultValue = Arg.NULL) Boolean pythonShell,
                              @Arg(value = "env", defaultValue = Arg.NULL) Object env,
                              @Arg(value = "timeout", defaultValue = Arg.NULL) Double timeout,
                              @Arg(value = "ignore_retcode", defaultValue = "false") boolean ignoreRetcode,
                              ModuleContext context) {
        Options options = new Options(cmd, cwd, stdin, shell, pythonShell, env, timeout, context);
        return execute(options, true, outcome -> outcome.timedOut()
                ? timedOut("", timeout)
                : CallResult.withRetcode(outcome.exitCode(), outcome.exitCode()),
                failure -> CallResult.withRetcode(failure.exitCode(), failure.exitCode()));
    }

    @SaltFunction(doc = "Return the path of an executable found in PATH, or None.\n\nCLI Example: salt '*' cmd.which ls")
    public String which(@Arg("cmd") String cmd) {
        return ExecutablePath.find(cmd, System.getenv("PATH")).map(Path::toString).orElse(null);
    }

    @SaltFunction(doc = "Return True if the executable is available on the minion.\n\n"
            + "CLI Example: salt '*' cmd.has_exec cat")
    public boolean has_exec(@Arg("cmd") String cmd) {
        return ExecutablePath.find(cmd, System.getenv("PATH")).isPresent();
    }

    /** The options every runner shares. */
    private record Options(String cmd, String cwd, String stdin, String shell, Boolean pythonShell, Object env,
                           Double timeout, ModuleContext context) {
    }

    private CallResult execute(Options options, boolean mergeStderr, Function<CommandOutcome, CallResult> finished,
                               Function<CommandLaunchException, CallResult> notStarted) {
        CommandSpec spec = spec(options, mergeStderr);
        LOG.debug("Executing command {} in directory '{}'", spec.argv(), spec.cwd());
        try {
            return finished.apply(CommandRunner.run(spec));
        } catch (CommandLaunchException e) {
            LOG.debug("{}", e.getMessage());
            return notStarted.apply(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandExecutionException("interrupted; the command was killed");
        }
    }

    private static CommandSpec spec(Options options, boolean mergeStderr) {
        if (options.cmd() == null || options.cmd().isBlank()) {
            throw new CommandExecutionException("no command given");
        }
        List<String> argv;
        if (useShell(options)) {
            argv = List.of(options.shell() == null ? DEFAULT_SHELL : options.shell(), "-c", options.cmd());
        } else {
            try {
                argv = CommandLine.split(options.cmd());
            } catch (IllegalArgumentException e) {
                throw new CommandExecutionException("Unable to parse command '" + options.cmd() + "': " + e.getMessage());
            }
            if (argv.isEmpty()) {
                throw new CommandExecutionException("no command given");
            }
        }
        Duration timeout = null;
        if (options.timeout() != null) {
            if (!(options.timeout() > 0)) {
                throw new CommandExecutionException("timeout must be a positive number of seconds, got "
                        + options.timeout());
            }
            timeout = Duration.ofNanos((long) (options.timeout() * 1e9));
        }
        return new CommandSpec(argv, workingDirectory(options.cwd()), environment(options.env()), options.stdin(),
                timeout, mergeStderr, CommandSpec.DEFAULT_MAX_BYTES);
    }

    private static boolean useShell(Options options) {
        if (options.pythonShell() != null) {
            return options.pythonShell();
        }
        // Salt's override switch: cmd_safe False makes the shell the default
        return Boolean.FALSE.equals(options.context().opts().get("cmd_safe"));
    }

    private static Path workingDirectory(String cwd) {
        if (cwd == null) {
            // Salt runs in the home directory of the user it runs as
            Path home = Path.of(System.getProperty("user.home", "/"));
            return Files.isDirectory(home) ? home : Path.of("/");
        }
        try {
            Path path = Path.of(cwd);
            if (path.isAbsolute() && Files.isDirectory(path)) {
                return path;
            }
        } catch (InvalidPathException e) {
            // reported below
        }
        throw new CommandExecutionException("Specified cwd '" + cwd + "' either not absolute or does not exist");
    }

    /** Salt accepts env as a dict or, from states, as a list of one-key dicts. */
    private static Map<String, String> environment(Object env) {
        Map<String, String> variables = new LinkedHashMap<>();
        if (env == null) {
            return variables;
        }
        if (env instanceof Map<?, ?> map) {
            map.forEach((name, value) -> variables.put(String.valueOf(name), value == null ? null : String.valueOf(value)));
            return variables;
        }
        if (env instanceof List<?> list) {
            for (Object item : list) {
                if (!(item instanceof Map<?, ?>)) {
                    throw new CommandExecutionException("env must be a dict or a list of dicts, got " + env);
                }
                variables.putAll(environment(item));
            }
            return variables;
        }
        throw new CommandExecutionException("env must be a dict or a list of dicts, got " + env);
    }

    private static Map<String, Object> runAll(long pid, int retcode, String stdout, String stderr) {
        Map<String, Object> ret = new LinkedHashMap<>();
        ret.put("pid", pid);
        ret.put("retcode", retcode);
        ret.put("stdout", stdout);
        ret.put("stderr", stderr);
        return ret;
    }

    private static CallResult timedOut(String partialOutput, Double timeout) {
        return CallResult.failed(join(strip(partialOutput, true), timeoutMessage(timeout)), 1);
    }

    private static String timeoutMessage(Double seconds) {
        double value = seconds == null ? 0 : seconds;
        String shown = value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
        return "Timed out after " + shown + " s";
    }

    private static String join(String output, String message) {
        return output.isEmpty() ? message : output + "\n" + message;
    }

    /** Salt's rstrip=True: trailing whitespace (the final newline, mostly) goes. */
    private static String strip(String text, boolean rstrip) {
        return rstrip ? text.stripTrailing() : text;
    }
}
