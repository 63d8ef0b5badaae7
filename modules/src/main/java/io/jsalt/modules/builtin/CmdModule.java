package io.jsalt.modules.builtin;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleContext;
import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.JobControl;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.builtin.cmd.CommandExecution;
import io.jsalt.modules.builtin.cmd.CommandLaunchException;
import io.jsalt.modules.builtin.cmd.CommandOutcome;
import io.jsalt.modules.builtin.cmd.CommandRequest;
import io.jsalt.modules.builtin.cmd.ExecutablePath;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Salt's {@code cmd} module (cmdmod): run programs, with Salt's argument names, order and return shapes.
 *
 * <p>Commands run through {@code /bin/sh -c cmd} by default, as Salt runs the calls made from its command line;
 * {@code python_shell=False}, or {@code cmd_safe: True} in the minion's config, runs them as argv (split like
 * {@code shlex.split}) instead (see {@link CommandExecution#shellByDefault}). {@code ignore_retcode} only changes the logging,
 * as in Salt. Interrupting the job's thread kills the command and everything it started.
 * {@code cmd.script} lives in {@link CmdScriptModule}.
 */
@SaltModule(name = "cmd", doc = "Execute commands on the minion (Salt's cmdmod).")
public final class CmdModule implements ExecutionModule {

    @SaltFunction(doc = "Execute the passed command and return its output, stderr merged into stdout, trailing "
            + "whitespace stripped. The job's retcode is the command's exit code. runas runs it as another user "
            + "(the minion must be root); output_loglevel (quiet, trace, debug, info, warning, error) is the level "
            + "at which the command and its output are logged.\n\n"
            + "CLI Example: salt '*' cmd.run \"ls -l /var\" cwd=/tmp timeout=30 runas=nobody")
    public CallResult run(@Arg("cmd") String cmd,
                          @Arg(value = "cwd", defaultValue = Arg.NULL) String cwd,
                          @Arg(value = "stdin", defaultValue = Arg.NULL) String stdin,
                          @Arg(value = "runas", defaultValue = Arg.NULL) String runas,
                          @Arg(value = "shell", defaultValue = Arg.NULL) String shell,
                          @Arg(value = "python_shell", defaultValue = Arg.NULL) Boolean pythonShell,
                          @Arg(value = "env", defaultValue = Arg.NULL) Object env,
                          @Arg(value = "rstrip", defaultValue = "true") boolean rstrip,
                          @Arg(value = "output_loglevel", defaultValue = "debug") String outputLoglevel,
                          @Arg(value = "timeout", defaultValue = Arg.NULL) Double timeout,
                          @Arg(value = "ignore_retcode", defaultValue = "false") boolean ignoreRetcode,
                          ModuleContext context, JobControl job) {
        CommandRequest request = new CommandRequest(cmd, cwd, stdin, runas, shell, pythonShell, env, timeout,
                outputLoglevel, ignoreRetcode);
        return execute(request, true, context, job, outcome -> outcome.timedOut()
                ? timedOut(outcome.stdout(), timeout)
                : CallResult.withRetcode(strip(outcome.stdout(), rstrip), outcome.exitCode()),
                failure -> CallResult.failed("ERROR: " + failure.getMessage(), failure.exitCode()));
    }

    @SaltFunction(doc = "Like cmd.run, but through a shell by default (python_shell=True), so pipes, "
            + "redirections and variables work.\n\nCLI Example: salt '*' cmd.shell \"ls -l | wc -l\"")
    public CallResult shell(@Arg("cmd") String cmd,
                            @Arg(value = "cwd", defaultValue = Arg.NULL) String cwd,
                            @Arg(value = "stdin", defaultValue = Arg.NULL) String stdin,
                            @Arg(value = "runas", defaultValue = Arg.NULL) String runas,
                            @Arg(value = "shell", defaultValue = Arg.NULL) String shell,
                            @Arg(value = "python_shell", defaultValue = "true") boolean pythonShell,
                            @Arg(value = "env", defaultValue = Arg.NULL) Object env,
                            @Arg(value = "rstrip", defaultValue = "true") boolean rstrip,
                            @Arg(value = "output_loglevel", defaultValue = "debug") String outputLoglevel,
                            @Arg(value = "timeout", defaultValue = Arg.NULL) Double timeout,
                            @Arg(value = "ignore_retcode", defaultValue = "false") boolean ignoreRetcode,
                            ModuleContext context, JobControl job) {
        return run(cmd, cwd, stdin, runas, shell, pythonShell, env, rstrip, outputLoglevel, timeout, ignoreRetcode,
                context, job);
    }

    @SaltFunction(doc = "Execute the passed command and return a dict of pid, retcode, stdout and stderr. "
            + "The job's retcode is the command's exit code.\n\nCLI Example: salt '*' cmd.run_all \"ls -l /var\"")
    public CallResult run_all(@Arg("cmd") String cmd,
                              @Arg(value = "cwd", defaultValue = Arg.NULL) String cwd,
                              @Arg(value = "stdin", defaultValue = Arg.NULL) String stdin,
                              @Arg(value = "runas", defaultValue = Arg.NULL) String runas,
                              @Arg(value = "shell", defaultValue = Arg.NULL) String shell,
                              @Arg(value = "python_shell", defaultValue = Arg.NULL) Boolean pythonShell,
                              @Arg(value = "env", defaultValue = Arg.NULL) Object env,
                              @Arg(value = "rstrip", defaultValue = "true") boolean rstrip,
                              @Arg(value = "output_loglevel", defaultValue = "debug") String outputLoglevel,
                              @Arg(value = "timeout", defaultValue = Arg.NULL) Double timeout,
                              @Arg(value = "ignore_retcode", defaultValue = "false") boolean ignoreRetcode,
                              ModuleContext context, JobControl job) {
        CommandRequest request = new CommandRequest(cmd, cwd, stdin, runas, shell, pythonShell, env, timeout,
                outputLoglevel, ignoreRetcode);
        return runAll(request, rstrip, context, job);
    }

    @SaltFunction(doc = "Execute a command and return only its standard output.\n\n"
            + "CLI Example: salt '*' cmd.run_stdout \"ls -l /var\"")
    public CallResult run_stdout(@Arg("cmd") String cmd,
                                 @Arg(value = "cwd", defaultValue = Arg.NULL) String cwd,
                                 @Arg(value = "stdin", defaultValue = Arg.NULL) String stdin,
                                 @Arg(value = "runas", defaultValue = Arg.NULL) String runas,
                                 @Arg(value = "shell", defaultValue = Arg.NULL) String shell,
                                 @Arg(value = "python_shell", defaultValue = Arg.NULL) Boolean pythonShell,
                                 @Arg(value = "env", defaultValue = Arg.NULL) Object env,
                                 @Arg(value = "rstrip", defaultValue = "true") boolean rstrip,
                                 @Arg(value = "output_loglevel", defaultValue = "debug") String outputLoglevel,
                                 @Arg(value = "timeout", defaultValue = Arg.NULL) Double timeout,
                                 @Arg(value = "ignore_retcode", defaultValue = "false") boolean ignoreRetcode,
                                 ModuleContext context, JobControl job) {
        CommandRequest request = new CommandRequest(cmd, cwd, stdin, runas, shell, pythonShell, env, timeout,
                outputLoglevel, ignoreRetcode);
        return execute(request, false, context, job, outcome -> outcome.timedOut()
                ? timedOut(outcome.stdout(), timeout)
                : CallResult.withRetcode(strip(outcome.stdout(), rstrip), outcome.exitCode()),
                failure -> CallResult.failed("ERROR: " + failure.getMessage(), failure.exitCode()));
    }

    @SaltFunction(doc = "Execute a command and return only its standard error.\n\n"
            + "CLI Example: salt '*' cmd.run_stderr \"ls -l /nonexistent\"")
    public CallResult run_stderr(@Arg("cmd") String cmd,
                                 @Arg(value = "cwd", defaultValue = Arg.NULL) String cwd,
                                 @Arg(value = "stdin", defaultValue = Arg.NULL) String stdin,
                                 @Arg(value = "runas", defaultValue = Arg.NULL) String runas,
                                 @Arg(value = "shell", defaultValue = Arg.NULL) String shell,
                                 @Arg(value = "python_shell", defaultValue = Arg.NULL) Boolean pythonShell,
                                 @Arg(value = "env", defaultValue = Arg.NULL) Object env,
                                 @Arg(value = "rstrip", defaultValue = "true") boolean rstrip,
                                 @Arg(value = "output_loglevel", defaultValue = "debug") String outputLoglevel,
                                 @Arg(value = "timeout", defaultValue = Arg.NULL) Double timeout,
                                 @Arg(value = "ignore_retcode", defaultValue = "false") boolean ignoreRetcode,
                                 ModuleContext context, JobControl job) {
        CommandRequest request = new CommandRequest(cmd, cwd, stdin, runas, shell, pythonShell, env, timeout,
                outputLoglevel, ignoreRetcode);
        return execute(request, false, context, job, outcome -> outcome.timedOut()
                ? timedOut(outcome.stderr(), timeout)
                : CallResult.withRetcode(strip(outcome.stderr(), rstrip), outcome.exitCode()),
                failure -> CallResult.failed("ERROR: " + failure.getMessage(), failure.exitCode()));
    }

    @SaltFunction(doc = "Execute a command and return its exit code, which is also the job's retcode.\n\n"
            + "CLI Example: salt '*' cmd.retcode \"test -f /etc/hosts\"")
    public CallResult retcode(@Arg("cmd") String cmd,
                              @Arg(value = "cwd", defaultValue = Arg.NULL) String cwd,
                              @Arg(value = "stdin", defaultValue = Arg.NULL) String stdin,
                              @Arg(value = "runas", defaultValue = Arg.NULL) String runas,
                              @Arg(value = "shell", defaultValue = Arg.NULL) String shell,
                              @Arg(value = "python_shell", defaultValue = Arg.NULL) Boolean pythonShell,
                              @Arg(value = "env", defaultValue = Arg.NULL) Object env,
                              @Arg(value = "output_loglevel", defaultValue = "debug") String outputLoglevel,
                              @Arg(value = "timeout", defaultValue = Arg.NULL) Double timeout,
                              @Arg(value = "ignore_retcode", defaultValue = "false") boolean ignoreRetcode,
                              ModuleContext context, JobControl job) {
        CommandRequest request = new CommandRequest(cmd, cwd, stdin, runas, shell, pythonShell, env, timeout,
                outputLoglevel, ignoreRetcode);
        return execute(request, true, context, job, outcome -> outcome.timedOut()
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

    /** cmd.run_all's dict; cmd.script returns the same. */
    static CallResult runAll(CommandRequest request, boolean rstrip, ModuleContext context, JobControl job) {
        return execute(request, false, context, job, outcome -> {
            if (outcome.timedOut()) {
                String stderr = join(strip(outcome.stderr(), rstrip), timeoutMessage(request.timeout()));
                return CallResult.failed(runAllShape(outcome.pid(), 1, strip(outcome.stdout(), rstrip), stderr), 1);
            }
            return CallResult.withRetcode(runAllShape(outcome.pid(), outcome.exitCode(),
                    strip(outcome.stdout(), rstrip), strip(outcome.stderr(), rstrip)), outcome.exitCode());
        }, failure -> CallResult.failed(runAllShape(0, failure.exitCode(), "", "ERROR: " + failure.getMessage()),
                failure.exitCode()));
    }

    static Map<String, Object> runAllShape(long pid, int retcode, String stdout, String stderr) {
        Map<String, Object> ret = new LinkedHashMap<>();
        ret.put("pid", pid);
        ret.put("retcode", retcode);
        ret.put("stdout", stdout);
        ret.put("stderr", stderr);
        return ret;
    }

    private static CallResult execute(CommandRequest request, boolean mergeStderr, ModuleContext context,
                                      JobControl job, Function<CommandOutcome, CallResult> finished,
                                      Function<CommandLaunchException, CallResult> notStarted) {
        try {
            return finished.apply(CommandExecution.run(request, mergeStderr, context.opts(), job));
        } catch (CommandLaunchException e) {
            return notStarted.apply(e);
        }
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
