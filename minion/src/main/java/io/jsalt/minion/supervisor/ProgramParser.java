package io.jsalt.minion.supervisor;

import io.jsalt.config.ConfigException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one program's keys, as Supervisor spells them, into its processes: the same reading for a
 * {@code [program:x]} section of an ini file and for an entry of the minion config's {@code supervisor:}.
 * A value that cannot be used fails with the file, the key and the expected form, and nothing is applied.
 */
final class ProgramParser {
    private static final Logger log = LoggerFactory.getLogger(ProgramParser.class);

    /** Process names become log file names: no slash, no dot-dot, nothing a shell or a path would read twice. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_@][A-Za-z0-9_.@-]{0,127}");
    private static final Set<String> SIGNALS = Signals.NAMES;
    private static final Set<String> KNOWN = Set.of("command", "process_name", "numprocs", "numprocs_start",
            "directory", "autostart", "startsecs", "startretries", "autorestart", "exitcodes", "stopsignal",
            "stopwaitsecs", "environment", "redirect_stderr", "stdout_logfile", "stdout_logfile_maxbytes",
            "stdout_logfile_backups", "stderr_logfile", "stderr_logfile_maxbytes", "stderr_logfile_backups",
            "backoff", "user", "stopasgroup", "killasgroup", "pidfile", "pattern", "adoptwaitsecs", "umask", "priority");
    /** Supervisor keys jsalt reads but does not act on yet: a WARN, so a migrated file still loads. */
    private static final Set<String> NOT_YET = Set.of("serverurl", "stdout_capture_maxbytes", "stderr_capture_maxbytes", "stdout_events_enabled",
            "stderr_events_enabled", "stdout_syslog", "stderr_syslog");

    private final Path logDir;
    private final Map<String, String> env;
    private final java.util.function.Supplier<String> host;
    private final String minionUser;
    /** Whether the minion runs as root: only then may a program run as another user. */
    private final boolean minionIsRoot;
    private final Function<String, java.util.Optional<RunAs>> users;

    /**
     * @param logDir where AUTO log files go ({@code <name>-stdout---supervisor.log} in Supervisor's childlogdir)
     * @param env    the minion's environment, for {@code %(ENV_x)s}
     */
    ProgramParser(Path logDir, Map<String, String> env, java.util.function.Supplier<String> host, String minionUser) {
        this(logDir, env, host, minionUser, CommandLines.ownUid() == 0, RunAs::lookup);
    }

    /**
     * @param minionIsRoot whether the minion runs as root (uid 0): only then is another {@code user} taken
     * @param users        looks a user up by name
     */
    ProgramParser(Path logDir, Map<String, String> env, java.util.function.Supplier<String> host, String minionUser,
            boolean minionIsRoot, Function<String, java.util.Optional<RunAs>> users) {
        this.logDir = logDir;
        this.env = env;
        this.host = host;
        this.minionUser = minionUser;
        this.minionIsRoot = minionIsRoot;
        this.users = users;
    }

    /** Whether {@code name} may name a program, a group or a process (it names log files). */
    static boolean isName(String name) {
        return NAME.matcher(name).matches();
    }

    /** The host name is looked up only when a program is read: a benchmark starts thousands of minions. */
    static ProgramParser forThisHost(Path logDir) {
        return new ProgramParser(logDir, System.getenv(), ProgramParser::hostName, System.getProperty("user.name"));
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "localhost";
        }
    }

    /**
     * @param program the program's name
     * @param keys    its keys and values (text from an ini file, or YAML scalars)
     * @param file    the file it was read from, for messages
     * @param prefix  how messages name its keys: {@code supervisor:app} or {@code [program:app]}
     * @param here    Supervisor's {@code %(here)s}: the folder of the file
     */
    List<ProgramConfig> parse(String program, Map<String, ?> keys, Path file, String prefix, Path here) {
        Values v = new Values(keys, file, prefix);
        if (!NAME.matcher(program).matches()) {
            throw new ConfigException(file, prefix, "a program name of letters, digits and _ . @ - (at most 128)", program);
        }
        for (String key : keys.keySet()) {
            if (NOT_YET.contains(key)) {
                log.warn("{}: {} {}: not supported by jsalt yet, ignored", file, prefix, key);
            } else if (!KNOWN.contains(key)) {
                log.warn("{}: {} {}: unknown key, ignored", file, prefix, key);
            }
        }
        RunAs runAs = runAs(v.text("user", null), file, prefix);
        String command = v.text("command", null);
        if (command == null || command.isBlank()) {
            throw new ConfigException(file, prefix + " command", "the command line to run", command);
        }
        try {
            io.jsalt.modules.builtin.cmd.CommandLine.split(command); // split again at each start, after expansion
        } catch (IllegalArgumentException e) {
            throw new ConfigException(file, prefix + " command", "a command line split as shlex does (" + e.getMessage() + ")", command);
        }
        int numprocs = v.integer("numprocs", 1, 1, 1000);
        int numprocsStart = v.integer("numprocs_start", 0, 0, 1_000_000);
        String processName = v.text("process_name", "%(program_name)s");
        if (numprocs > 1 && !processName.contains("%(process_num)")) {
            throw new ConfigException(file, prefix + " process_name", "%(process_num) in the name when numprocs > 1",
                    processName);
        }
        String hostName = host.get();
        List<ProgramConfig> processes = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < numprocs; i++) {
            Map<String, String> known = new LinkedHashMap<>();
            known.put("program_name", program);
            known.put("group_name", program);
            known.put("process_num", Integer.toString(numprocsStart + i));
            known.put("numprocs", Integer.toString(numprocs));
            known.put("host_node_name", hostName);
            known.put("here", here.toString());
            Function<String, String> lookup = PercentExpansion.names(known, env);
            String name = v.expanded("process_name", processName, lookup);
            if (!NAME.matcher(name).matches()) {
                throw new ConfigException(file, prefix + " process_name", "a name of letters, digits and _ . @ -", name);
            }
            if (!names.add(name)) {
                throw new ConfigException(file, prefix + " process_name", "a different name for each process", name);
            }
            known.put("process_name", name);
            processes.add(process(v, program, name, command, lookup, file, runAs));
        }
        return processes;
    }

    /**
     * {@code user}: null for the minion's own user; another one only for a root minion (a program never runs as
     * the minion's user instead of the one asked for), and only a user of this host.
     */
    private RunAs runAs(String user, Path file, String prefix) {
        if (user == null || user.equals(minionUser)) {
            return null;
        }
        if (!minionIsRoot) {
            throw new ConfigException(file, prefix + " user", "the minion's own user '" + minionUser
                    + "' (only a minion running as root runs programs as other users)", user);
        }
        return users.apply(user).orElseThrow(() -> new ConfigException(file, prefix + " user", "a user of this host", user));
    }

    private ProgramConfig process(Values v, String program, String name, String command,
            Function<String, String> lookup, Path file, RunAs runAs) {
        String directory = v.text("directory", null);
        String signal = v.text("stopsignal", "TERM").toUpperCase(Locale.ROOT);
        signal = signal.startsWith("SIG") ? signal.substring(3) : signal;
        if (!SIGNALS.contains(signal)) {
            throw new ConfigException(file, v.prefix + " stopsignal", "one of " + new java.util.TreeSet<>(SIGNALS), signal);
        }
        double backoff = v.number("backoff", 1, 0.001, 3600);
        return new ProgramConfig(name, program, v.expanded("command", command, lookup),
                directory == null ? null : Path.of(v.expanded("directory", directory, lookup)),
                v.bool("autostart", true),
                v.integer("startsecs", ProgramConfig.DEFAULT_STARTSECS, 0, 86_400),
                v.integer("startretries", ProgramConfig.DEFAULT_STARTRETRIES, 0, 1_000_000),
                autorestart(v),
                exitcodes(v),
                signal,
                v.integer("stopwaitsecs", ProgramConfig.DEFAULT_STOPWAITSECS, 0, 86_400),
                v.bool("stopasgroup", false),
                // Supervisor: stopasgroup=true implies killasgroup=true
                v.bool("killasgroup", false) || v.bool("stopasgroup", false),
                environment(v, lookup),
                v.bool("redirect_stderr", false),
                logSettings(v, "stdout", name, lookup),
                v.bool("redirect_stderr", false) ? ProgramConfig.LogSettings.NONE : logSettings(v, "stderr", name, lookup),
                Duration.ofMillis(Math.round(backoff * 1000)),
                pidfile(v, lookup),
                pattern(v, lookup),
                v.integer("adoptwaitsecs", 0, 0, 86_400),
                umask(v),
                v.integer("priority", ProgramConfig.DEFAULT_PRIORITY, 0, 1_000_000),
                runAs,
                file.toString());
    }

    private static Path pidfile(Values v, Function<String, String> lookup) {
        String text = v.text("pidfile", null);
        if (text == null || text.isBlank()) {
            return null;
        }
        Path file = Path.of(v.expanded("pidfile", text, lookup));
        if (!file.isAbsolute()) {
            throw new ConfigException(v.file, v.prefix + " pidfile", "an absolute path", text);
        }
        return file;
    }

    /** A regular expression (Java's) over command lines, checked here so that a bad one is refused with its key. */
    private static String pattern(Values v, Function<String, String> lookup) {
        String text = v.text("pattern", null);
        if (text == null || text.isEmpty()) {
            return null;
        }
        String expanded = v.expanded("pattern", text, lookup);
        try {
            Pattern.compile(expanded);
        } catch (java.util.regex.PatternSyntaxException e) {
            throw new ConfigException(v.file, v.prefix + " pattern", "a regular expression (" + e.getDescription() + ")", text);
        }
        if (expanded.length() > 1000) {
            throw new ConfigException(v.file, v.prefix + " pattern", "a regular expression of at most 1000 characters", text);
        }
        return expanded;
    }

    /** Supervisor's {@code umask}: an octal number such as 022 or 0002. */
    private static Integer umask(Values v) {
        String text = v.text("umask", null);
        if (text == null || text.isEmpty()) {
            return null;
        }
        if (!text.matches("0?[0-7]{1,3}")) {
            throw new ConfigException(v.file, v.prefix + " umask", "an octal number such as 022", text);
        }
        return Integer.parseInt(text, 8);
    }

    private static AutoRestart autorestart(Values v) {
        String text = v.text("autorestart", "unexpected");
        return AutoRestart.parse(text).orElseThrow(() ->
                new ConfigException(v.file, v.prefix + " autorestart", "false, unexpected or true", text));
    }

    private static Set<Integer> exitcodes(Values v) {
        String text = v.text("exitcodes", "0");
        Set<Integer> codes = new LinkedHashSet<>();
        for (String part : text.split(",")) {
            try {
                int code = Integer.parseInt(part.trim());
                if (code < 0 || code > 255) {
                    throw new NumberFormatException();
                }
                codes.add(code);
            } catch (NumberFormatException e) {
                throw new ConfigException(v.file, v.prefix + " exitcodes", "exit codes 0..255 separated by commas", text);
            }
        }
        return codes;
    }

    private Map<String, String> environment(Values v, Function<String, String> lookup) {
        Object raw = v.keys.get("environment");
        if (raw == null) {
            return Map.of();
        }
        Map<String, String> out = new LinkedHashMap<>();
        if (raw instanceof Map<?, ?> map) {
            map.forEach((k, value) -> out.put(String.valueOf(k), value == null ? "" : String.valueOf(value)));
        } else {
            try {
                out.putAll(EnvironmentList.parse(String.valueOf(raw)));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(v.file, v.prefix + " environment", "KEY=\"value\" pairs separated by commas", raw);
            }
        }
        out.replaceAll((k, value) -> v.expanded("environment", value, lookup));
        for (String key : out.keySet()) {
            if (key.isEmpty() || key.contains("=") || key.contains("\0")) {
                throw new ConfigException(v.file, v.prefix + " environment", "variable names without = or NUL", key);
            }
        }
        return out;
    }

    private ProgramConfig.LogSettings logSettings(Values v, String stream, String name, Function<String, String> lookup) {
        String key = stream + "_logfile";
        String text = v.text(key, "AUTO");
        Path file;
        if (text.equalsIgnoreCase("NONE")) {
            return ProgramConfig.LogSettings.NONE;
        } else if (text.equalsIgnoreCase("AUTO")) {
            file = logDir.resolve(name + "-" + stream + ".log"); // name is checked: the file stays in logDir
        } else {
            file = Path.of(v.expanded(key, text, lookup));
            if (!file.isAbsolute()) {
                throw new ConfigException(v.file, v.prefix + " " + key, "an absolute path, AUTO or NONE", text);
            }
        }
        return new ProgramConfig.LogSettings(file, v.bytes(key + "_maxbytes", ProgramConfig.DEFAULT_LOGFILE_MAXBYTES),
                v.integer(key + "_backups", ProgramConfig.DEFAULT_LOGFILE_BACKUPS, 0, 1000));
    }

    /** One program's values, each read as text (an ini file has nothing else) and checked with its key's name. */
    private static final class Values {
        private static final Pattern SIZE = Pattern.compile("(?i)\\s*([0-9]+)\\s*(KB|MB|GB)?\\s*");
        final Map<String, ?> keys;
        final Path file;
        final String prefix;

        Values(Map<String, ?> keys, Path file, String prefix) {
            this.keys = keys;
            this.file = file;
            this.prefix = prefix;
        }

        String text(String key, String dflt) {
            Object value = keys.get(key);
            if (value == null) {
                return dflt;
            }
            if (value instanceof Map<?, ?> || value instanceof List<?>) {
                throw new ConfigException(file, prefix + " " + key, "a single value", value);
            }
            return String.valueOf(value).strip();
        }

        String expanded(String key, String text, Function<String, String> lookup) {
            try {
                return PercentExpansion.expand(text, lookup);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(file, prefix + " " + key, "known %(name)s expansions (" + e.getMessage() + ")", text);
            }
        }

        int integer(String key, int dflt, int min, int max) {
            String text = text(key, null);
            if (text == null) {
                return dflt;
            }
            try {
                int value = Integer.parseInt(text);
                if (value >= min && value <= max) {
                    return value;
                }
            } catch (NumberFormatException e) {
                // refused below
            }
            throw new ConfigException(file, prefix + " " + key, "an integer " + min + ".." + max, text);
        }

        double number(String key, double dflt, double min, double max) {
            String text = text(key, null);
            if (text == null) {
                return dflt;
            }
            try {
                double value = Double.parseDouble(text);
                if (value >= min && value <= max) {
                    return value;
                }
            } catch (NumberFormatException e) {
                // refused below
            }
            throw new ConfigException(file, prefix + " " + key, "a number of seconds " + min + ".." + max, text);
        }

        boolean bool(String key, boolean dflt) {
            String text = text(key, null);
            if (text == null) {
                return dflt;
            }
            return switch (text.toLowerCase(Locale.ROOT)) {
                case "true", "yes", "on", "1" -> true;
                case "false", "no", "off", "0" -> false;
                default -> throw new ConfigException(file, prefix + " " + key, "true or false", text);
            };
        }

        /** Supervisor's byte sizes: 1024, 50KB, 50MB, 1GB. */
        long bytes(String key, long dflt) {
            String text = text(key, null);
            if (text == null) {
                return dflt;
            }
            var m = SIZE.matcher(text);
            if (!m.matches()) {
                throw new ConfigException(file, prefix + " " + key, "a size such as 1024, 50KB, 50MB or 1GB", text);
            }
            long unit = m.group(2) == null ? 1 : switch (m.group(2).toUpperCase(Locale.ROOT)) {
                case "KB" -> 1024L;
                case "MB" -> 1024L * 1024;
                default -> 1024L * 1024 * 1024;
            };
            try {
                return Math.multiplyExact(Long.parseLong(m.group(1)), unit);
            } catch (ArithmeticException | NumberFormatException e) {
                throw new ConfigException(file, prefix + " " + key, "a size below 8 EB", text);
            }
        }
    }
}
