package io.jsalt.modules.builtin.cmd;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.JobControl;
import java.util.List;
import java.util.Map;

/**
 * Runs one {@link CommandRequest} for a {@code cmd.*} function: builds its spec, logs it at the request's
 * output_loglevel, runs it in the job (which hears of the child process) and turns an interruption (a killed job)
 * into an error once the process tree is gone.
 */
public final class CommandExecution {

    private CommandExecution() {
    }

    /**
     * Runs {@code request}.
     *
     * @param mergeStderr whether stderr goes into stdout (cmd.run)
     * @param opts        the minion's options: {@code cmd_safe: True} takes the shell away by default
     * @throws CommandLaunchException    when the program cannot be started
     * @throws CommandExecutionException for a bad request, or when the job was killed
     */
    public static CommandOutcome run(CommandRequest request, boolean mergeStderr, Map<String, Object> opts,
                                     JobControl job) throws CommandLaunchException {
        OutputLogLevel level = OutputLogLevel.parse(request.outputLoglevel());
        boolean shellByDefault = shellByDefault(opts);
        List<String> argv = request.argv(shellByDefault);
        CommandSpec spec = request.toSpec(mergeStderr, shellByDefault, RunAs.system());
        CommandLog.started(level, argv, request.runas(), spec.cwd());
        CommandOutcome outcome;
        try {
            outcome = CommandRunner.run(spec, job);
        } catch (CommandLaunchException e) {
            level.level().ifPresent(l -> CommandLog.notStarted(l, e.getMessage()));
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandExecutionException("interrupted; the command was killed", e);
        }
        CommandLog.finished(level, argv, outcome, request.ignoreRetcode());
        return outcome;
    }

    /**
     * Whether a command runs through {@code /bin/sh -c} when the call does not say {@code python_shell}. Salt
     * runs every call made from its command line (salt, salt-call, a schedule: calls that carry a jid) through
     * the shell, so pipes and {@code $VARS} in {@code cmd.run 'echo $HOME | wc -c'} work; only calls from other
     * modules go without one, and jsalt has none of those. A minion whose config says {@code cmd_safe: True}
     * runs commands as plain argv unless a call asks for {@code python_shell=True} (stricter than Salt, which
     * lets remote calls have the shell whatever cmd_safe says).
     */
    public static boolean shellByDefault(Map<String, Object> opts) {
        return !Boolean.TRUE.equals(opts.get("cmd_safe"));
    }
}
