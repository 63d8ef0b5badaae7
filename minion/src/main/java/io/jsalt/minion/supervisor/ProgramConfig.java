package io.jsalt.minion.supervisor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One supervised process as Supervisor defines it: a {@code [program:x]} section with {@code numprocs} of 3
 * gives three of these, one per process name, all in group {@code x}.
 *
 * @param name            the process name ({@code process_name} expanded)
 * @param group           the program's name, Supervisor's group of its processes
 * @param command         {@code command}, split as Supervisor splits it (shlex, no shell) and run
 * @param directory       {@code directory}: the working folder, null for the minion's own
 * @param autostart       {@code autostart} (true)
 * @param startsecs       {@code startsecs} (1): how long a process must stay up to count as started
 * @param startretries    {@code startretries} (3): failed starts in a row before FATAL
 * @param autorestart     {@code autorestart} (unexpected)
 * @param exitcodes       {@code exitcodes} (0): the expected exit codes
 * @param stopsignal      {@code stopsignal} (TERM): a signal name without SIG
 * @param stopwaitsecs    {@code stopwaitsecs} (10): how long a stop waits before KILL
 * @param stopasgroup     {@code stopasgroup} (false): the stop signal goes to the process's descendants too
 * @param killasgroup     {@code killasgroup} (false, true with stopasgroup): so does the KILL
 * @param environment     {@code environment}: added to the minion's own environment
 * @param redirectStderr  {@code redirect_stderr} (false): stderr goes to the stdout log
 * @param stdout          {@code stdout_logfile} with its {@code _maxbytes} (50MB) and {@code _backups} (10)
 * @param stderr          {@code stderr_logfile} likewise
 * @param backoff         jsalt's {@code backoff} (1 s): the first pause after a failed start; it doubles on
 *                        each retry, with jitter (Supervisor waits 1, 2, 3 ... seconds)
 * @param pidfile         jsalt's {@code pidfile}: the command starts a daemon that forks into the background and
 *                        writes its pid there; the process supervised is that pid, not the command's; null: none
 * @param pattern         jsalt's {@code pattern}: a regular expression over command lines ({@code pgrep -f}'s); a
 *                        process of the minion's user that matches is adopted as this program's when none runs;
 *                        null: none
 * @param adoptwaitsecs   jsalt's {@code adoptwaitsecs} (0): after an adopted process (pidfile or pattern) exits,
 *                        how long to look for its replacement to adopt before the command is run
 * @param umask           {@code umask}: the process's file mode creation mask; null: the minion's
 * @param priority        {@code priority} (999): start order, lowest first ({@code start all}, the minion's start);
 *                        stops go in the reverse order
 * @param user            {@code user}, when it is not the minion's own user (a root minion runs the program as that
 *                        user); null: the minion's user
 * @param source          where the definition was read, for messages
 */
public record ProgramConfig(String name, String group, String command, Path directory, boolean autostart,
        int startsecs, int startretries, AutoRestart autorestart, Set<Integer> exitcodes, String stopsignal,
        int stopwaitsecs, boolean stopasgroup, boolean killasgroup, Map<String, String> environment, boolean redirectStderr, LogSettings stdout,
        LogSettings stderr, Duration backoff, Path pidfile, String pattern, int adoptwaitsecs, Integer umask, int priority, RunAs user, String source) {

    /** Supervisor's defaults. */
    public static final int DEFAULT_STARTSECS = 1;
    public static final int DEFAULT_STARTRETRIES = 3;
    public static final int DEFAULT_STOPWAITSECS = 10;
    public static final long DEFAULT_LOGFILE_MAXBYTES = 50L * 1024 * 1024;
    public static final int DEFAULT_LOGFILE_BACKUPS = 10;
    public static final Duration DEFAULT_BACKOFF = Duration.ofSeconds(1);
    public static final int DEFAULT_PRIORITY = 999;

    /**
     * An output log: {@code file} null means NONE (the output is dropped).
     *
     * @param maxbytes 0: never rotated
     * @param backups  how many rotated files are kept ({@code name.1} ... {@code name.N}); 0: none
     */
    public record LogSettings(Path file, long maxbytes, int backups) {
        public static final LogSettings NONE = new LogSettings(null, 0, 0);
    }

    public ProgramConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(autorestart, "autorestart");
        exitcodes = Set.copyOf(exitcodes);
        Objects.requireNonNull(stopsignal, "stopsignal");
        environment = Map.copyOf(environment);
        Objects.requireNonNull(stdout, "stdout");
        Objects.requireNonNull(stderr, "stderr");
        Objects.requireNonNull(backoff, "backoff");
        Objects.requireNonNull(source, "source");
    }

    /** A process with Supervisor's defaults and no log files, for code and tests. */
    public static ProgramConfig of(String name, String command) {
        return new ProgramConfig(name, name, command, null, true, DEFAULT_STARTSECS, DEFAULT_STARTRETRIES,
                AutoRestart.UNEXPECTED, Set.of(0), "TERM", DEFAULT_STOPWAITSECS, false, false, Map.of(), false, LogSettings.NONE,
                LogSettings.NONE, DEFAULT_BACKOFF, null, null, 0, null, DEFAULT_PRIORITY, null, "<code>");
    }

    /** Whether a process jsalt did not start can be taken as this program's: by its pidfile or its pattern. */
    public boolean adoptsOutsiders() {
        return pidfile != null || pattern != null;
    }

    /** The name supervisorctl shows: {@code group:name}, or the bare name when they are the same. */
    public String displayName() {
        return group.equals(name) ? name : group + ":" + name;
    }

    /** The same definition apart from where it was read: {@code update} restarts a process only when this differs. */
    public boolean sameAs(ProgramConfig other) {
        return other != null && equals(other.withSource(source));
    }

    /** The same process in Supervisor's {@code [group:x]} of that name. */
    public ProgramConfig withGroup(String named) {
        return new ProgramConfig(name, named, command, directory, autostart, startsecs, startretries, autorestart,
                exitcodes, stopsignal, stopwaitsecs, stopasgroup, killasgroup, environment, redirectStderr, stdout, stderr, backoff,
                pidfile, pattern, adoptwaitsecs, umask, priority, user, source);
    }

    public ProgramConfig withSource(String where) {
        return new ProgramConfig(name, group, command, directory, autostart, startsecs, startretries, autorestart,
                exitcodes, stopsignal, stopwaitsecs, stopasgroup, killasgroup, environment, redirectStderr, stdout, stderr, backoff,
                pidfile, pattern, adoptwaitsecs, umask, priority, user, where);
    }
}
