package io.jsalt.modules.builtin.cmd;

import io.jsalt.modules.api.CommandExecutionException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The options every {@code cmd.*} function shares, as the caller gave them (Salt's names), and how they become a
 * {@link CommandSpec}.
 *
 * @param cmd            the command line
 * @param cwd            the working directory, or null for the home directory of the user it runs as
 * @param stdin          text for the command's standard input, or null
 * @param runas          the user to run as, or null
 * @param shell          the shell for {@code python_shell=True}, or null for /bin/sh
 * @param pythonShell    whether to run through the shell; null means the minion's default
 * @param env            variables to set: a dict, or a list of one-key dicts (as states give it)
 * @param timeout        seconds the command may run, or null
 * @param outputLoglevel Salt's output_loglevel name, or null for debug
 * @param ignoreRetcode  whether a non-zero exit is expected (it is then not logged as an error)
 */
public record CommandRequest(String cmd, String cwd, String stdin, String runas, String shell, Boolean pythonShell,
                             Object env, Double timeout, String outputLoglevel, boolean ignoreRetcode) {

    private static final String DEFAULT_SHELL = "/bin/sh";

    /** The same request for another command line (cmd.script runs the cached script with its args). */
    public CommandRequest withCmd(String newCmd) {
        return new CommandRequest(newCmd, cwd, stdin, runas, shell, pythonShell, env, timeout, outputLoglevel,
                ignoreRetcode);
    }

    /** The program and its arguments, before any runas wrapping. */
    public List<String> argv(boolean shellByDefault) {
        if (cmd == null || cmd.isBlank()) {
            throw new CommandExecutionException("no command given");
        }
        boolean useShell = pythonShell != null ? pythonShell : shellByDefault;
        if (useShell) {
            return List.of(shell == null ? DEFAULT_SHELL : shell, "-c", cmd);
        }
        List<String> argv;
        try {
            argv = CommandLine.split(cmd);
        } catch (IllegalArgumentException e) {
            throw new CommandExecutionException("Unable to parse command '" + cmd + "': " + e.getMessage());
        }
        if (argv.isEmpty()) {
            throw new CommandExecutionException("no command given");
        }
        return argv;
    }

    /** What to run: the argv wrapped for runas, the working directory, environment and time limit. */
    public CommandSpec toSpec(boolean mergeStderr, boolean shellByDefault, RunAs runAs) {
        RunAs.Launch launch = runAs.launch(argv(shellByDefault), environment(env), runas);
        Path directory = cwd != null ? workingDirectory(cwd)
                : runas != null && !runas.isEmpty() ? runAs.home(runas) : ownHome();
        return new CommandSpec(launch.argv(), directory, launch.env(), stdin, duration(timeout), mergeStderr,
                CommandSpec.DEFAULT_MAX_BYTES, launch.inheritEnv());
    }

    private static Duration duration(Double seconds) {
        if (seconds == null) {
            return null;
        }
        if (!(seconds > 0)) {
            throw new CommandExecutionException("timeout must be a positive number of seconds, got " + seconds);
        }
        return Duration.ofNanos((long) (seconds * 1e9));
    }

    private static Path ownHome() {
        // Salt runs in the home directory of the user it runs as
        Path home = Path.of(System.getProperty("user.home", "/"));
        return Files.isDirectory(home) ? home : Path.of("/");
    }

    private static Path workingDirectory(String cwd) {
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
}
