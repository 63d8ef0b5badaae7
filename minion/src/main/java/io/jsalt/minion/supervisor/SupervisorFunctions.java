package io.jsalt.minion.supervisor;

import io.jsalt.config.ConfigException;
import io.jsalt.modules.CallResult;
import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.KwArgs;
import io.jsalt.modules.api.SaltFunction;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The functions of Salt's {@code supervisord} module, answered by the minion's own {@link Supervisor}
 * instead of a supervisorctl: the same names and return shapes (supervisorctl's text lines; {@code status}
 * as {@code {name: {state, reason}}}), plus {@code pid} and {@code tail}, which Salt's module lacks. The
 * minion registers it under both names, {@code supervisord} (Salt's) and {@code supervisor}.
 */
public abstract class SupervisorFunctions implements ExecutionModule {
    static final String MODULE_DOC = "Control the programs this minion supervises, with Supervisor's model "
            + "(Salt's supervisord module, answered by the minion itself)";

    private final Supervisor supervisor;

    SupervisorFunctions(Supervisor supervisor) {
        this.supervisor = supervisor;
    }

    @SaltFunction(doc = "List programs and their state: {name: {state, reason}}, for every process or the one "
            + "(or the group) named.\n\nCLI Example: salt '*' supervisord.status [name]")
    public Map<String, Map<String, String>> status(@Arg(value = "name", defaultValue = Arg.NULL) String name) {
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        for (ProcessSnapshot p : select(name)) {
            Map<String, String> row = new LinkedHashMap<>();
            row.put("state", p.state().name());
            row.put("reason", p.description());
            out.put(p.displayName(), row);
        }
        return out;
    }

    @SaltFunction(doc = "The status as supervisorctl prints it: name, state, description.\n\n"
            + "CLI Example: salt '*' supervisord.status_raw")
    public String status_raw(@Arg(value = "name", defaultValue = Arg.NULL) String name) {
        StringBuilder out = new StringBuilder();
        for (ProcessSnapshot p : select(name)) {
            out.append(String.format(Locale.ROOT, "%-32s %-9s %s", p.displayName(), p.state(), p.description()).stripTrailing())
                    .append('\n');
        }
        return out.toString().stripTrailing();
    }

    @SaltFunction(doc = "True when the named process exists and, if expected_state is given, is in that state.\n\n"
            + "CLI Example: salt '*' supervisord.status_bool nginx expected_state='RUNNING'")
    public boolean status_bool(@Arg("name") String name,
            @Arg(value = "expected_state", defaultValue = Arg.NULL) String expectedState) {
        List<ProcessSnapshot> found = supervisor.status(name);
        return found.size() == 1 && (expectedState == null || found.get(0).state().name().equals(expectedState));
    }

    @SaltFunction(doc = "Start the named process, group (web: or web:*) or all, and wait until each has left "
            + "STARTING.\n\nCLI Example: salt '*' supervisord.start <name>")
    public CallResult start(@Arg(value = "name", defaultValue = "all") String name) {
        return answer(supervisor.startProcesses(name));
    }

    @SaltFunction(doc = "Stop the named process, group or all: its stopsignal, then KILL after stopwaitsecs.\n\n"
            + "CLI Example: salt '*' supervisord.stop <name>")
    public CallResult stop(@Arg(value = "name", defaultValue = "all") String name) {
        return answer(supervisor.stopProcesses(name));
    }

    @SaltFunction(doc = "Stop, then start, the named process, group or all.\n\nCLI Example: salt '*' supervisord.restart <name>")
    public CallResult restart(@Arg(value = "name", defaultValue = "all") String name) {
        List<String> lines = new java.util.ArrayList<>(supervisor.stopProcesses(name));
        lines.removeIf(line -> line.endsWith("ERROR (not running)"));
        if (lines.stream().anyMatch(line -> line.endsWith("ERROR (no such process)"))) {
            return answer(lines);
        }
        lines.addAll(supervisor.startProcesses(name));
        return answer(lines);
    }

    /**
     * supervisorctl's lines, with retcode 1 when a process named does not exist or did not reach the state asked
     * for (a spawn error, an abnormal termination, a stop that did not finish), so that {@code --failhard}
     * stops a rolling restart ({@code jsalt -b 2 --failhard ... supervisor.restart app}) at the first host where
     * the program does not come back. Already in the state asked for is not a failure.
     */
    private static CallResult answer(List<String> lines) {
        String text = String.join("\n", lines);
        boolean failed = lines.stream().anyMatch(line -> line.contains(": ERROR (")
                && !line.endsWith("ERROR (already started)") && !line.endsWith("ERROR (not running)"));
        return failed ? CallResult.failed(text, 1) : CallResult.ok(text);
    }

    @SaltFunction(doc = "Send a signal (TERM, HUP, INT, QUIT, KILL, USR1, USR2) to the named process, group or all, "
            + "as supervisorctl signal does.\n\nCLI Example: salt '*' supervisor.signal HUP <name>")
    public String signal(@Arg("signal") String signal, @Arg(value = "name", defaultValue = "all") String name) {
        try {
            return String.join("\n", supervisor.signalProcesses(name, signal));
        } catch (IllegalArgumentException e) {
            throw new CommandExecutionException(e.getMessage());
        }
    }

    @SaltFunction(doc = "Read the definitions again and say what update would change, changing nothing.\n\n"
            + "CLI Example: salt '*' supervisord.reread")
    public String reread() {
        try {
            return String.join("\n", supervisor.reread());
        } catch (ConfigException e) {
            return "ERROR: " + e.getMessage();
        }
    }

    @SaltFunction(doc = "Read the definitions again and apply them: programs gone are stopped and removed, new ones "
            + "added, changed ones restarted; unchanged programs are not touched.\n\nCLI Example: salt '*' supervisord.update")
    public String update() {
        try {
            List<String> lines = supervisor.update();
            return lines.isEmpty() ? "" : String.join("\n", lines);
        } catch (ConfigException e) {
            return "ERROR: " + e.getMessage();
        }
    }

    @SaltFunction(doc = "Define a program on this minion and start it (with autostart): Supervisor's program keys as "
            + "keyword arguments, kept in the minion's own folder of added programs and read again at every start. Given "
            + "again with other keys, the program is restarted with them. Without keys, Supervisor's add: activate a "
            + "program already defined but not yet active.\n\n"
            + "CLI Example: salt '*' supervisor.add app command='/usr/bin/app --port 8080' autorestart=true")
    public String add(@Arg("name") String name, @KwArgs Map<String, Object> keys) {
        Map<String, Object> programKeys = new LinkedHashMap<>();
        keys.forEach((k, v) -> {
            if (!k.startsWith("__")) { // Salt's __pub_* publication fields
                programKeys.put(k, v);
            }
        });
        for (String saltOnly : List.of("conf_file", "bin_env")) {
            if (programKeys.containsKey(saltOnly)) {
                throw new CommandExecutionException(saltOnly + ": not accepted (there is no supervisorctl here: "
                        + "this minion is the supervisor)");
            }
        }
        try {
            return String.join("\n", supervisor.add(name, programKeys));
        } catch (IllegalArgumentException | ConfigException e) {
            throw new CommandExecutionException("ERROR: " + e.getMessage());
        }
    }

    @SaltFunction(doc = "Stop and remove a program supervisor.add defined, and delete its definition.\n\n"
            + "CLI Example: salt '*' supervisor.remove app")
    public String remove(@Arg("name") String name) {
        try {
            return String.join("\n", supervisor.remove(name));
        } catch (IllegalArgumentException | ConfigException e) {
            throw new CommandExecutionException("ERROR: " + e.getMessage());
        }
    }

    @SaltFunction(doc = "The pid of the named process, 0 when it is not running.\n\nCLI Example: salt '*' supervisord.pid <name>")
    public long pid(@Arg("name") String name) {
        OptionalLong pid = supervisor.pid(name);
        if (pid.isEmpty()) {
            throw new CommandExecutionException(name + ": ERROR (no such process)");
        }
        return pid.getAsLong();
    }

    @SaltFunction(doc = "The last lines of the named process's stdout log.\n\nCLI Example: salt '*' supervisord.tail <name> lines=20")
    public String tail(@Arg("name") String name, @Arg(value = "lines", defaultValue = "10") int lines) {
        if (lines < 0 || lines > 100_000) {
            throw new CommandExecutionException("lines: expected 0..100000, got " + lines);
        }
        Path file = supervisor.stdoutLog(name).orElseThrow(() ->
                new CommandExecutionException(name + ": ERROR (no such process or no stdout_logfile)"));
        try {
            return LogTail.lastLines(file, lines);
        } catch (IOException e) {
            throw new CommandExecutionException(name + ": ERROR (cannot read " + file + ": " + e.getMessage() + ")");
        }
    }

    @SaltFunction(doc = "Follow the named process's stdout log: without offset, the last lines and the offset of the "
            + "log's end; with offset, what the log gained after it (at most 64 KiB), waiting up to wait seconds (0..30) "
            + "for some. {data, offset, rotated}: ask again from offset. What jsalt-run supervisor.tail -f calls.\n\n"
            + "CLI Example: salt '*' supervisor.follow <name> offset=1024 wait=5")
    public Map<String, Object> follow(@Arg("name") String name, @Arg(value = "offset", defaultValue = Arg.NULL) Long offset,
            @Arg(value = "lines", defaultValue = "10") int lines, @Arg(value = "wait", defaultValue = "0") double wait) {
        if (lines < 0 || lines > 100_000) {
            throw new CommandExecutionException("lines: expected 0..100000, got " + lines);
        }
        if (!(wait >= 0 && wait <= 30)) {
            throw new CommandExecutionException("wait: expected 0..30 seconds, got " + wait);
        }
        if (offset != null && offset < 0) {
            throw new CommandExecutionException("offset: expected a byte offset >= 0, got " + offset);
        }
        Path file = supervisor.stdoutLog(name).orElseThrow(() ->
                new CommandExecutionException(name + ": ERROR (no such process or no stdout_logfile)"));
        try {
            return (offset == null ? LogFollow.start(file, lines)
                    : LogFollow.after(file, offset, java.time.Duration.ofMillis(Math.round(wait * 1000)))).toMap();
        } catch (IOException e) {
            throw new CommandExecutionException(name + ": ERROR (cannot read " + file + ": " + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandExecutionException(name + ": ERROR (interrupted)");
        }
    }

    private List<ProcessSnapshot> select(String name) {
        List<ProcessSnapshot> found = supervisor.status(name);
        if (found.isEmpty() && name != null) {
            throw new CommandExecutionException(name + ": ERROR (no such process)");
        }
        return found;
    }
}
