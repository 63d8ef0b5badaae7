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
     * @param opts        the minion's options: {@code cmd_safe: False} makes the shell the default, as in Salt
     * @throws CommandLaunchException    when the program cannot be started
     * @throws CommandExecutionException for a bad request, or when the job was killed
     */
    public static CommandOutcome run(CommandRequest request, boolean mergeStderr, Map<String, Object> opts,
                                     JobControl job) throws CommandLaunchException {
        OutputLogLevel level = OutputLogLevel.parse(request.outputLoglevel());
        boolean shellByDefault = Boolean.FALSE.equals(opts.get("cmd_safe"));
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
}
