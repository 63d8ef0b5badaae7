package io.jsalt.modules.builtin.cmd;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What to run and how.
 *
 * @param argv         the program and its arguments
 * @param cwd          the working directory
 * @param env          variables to set on top of the minion's environment (or of none, see below); a null
 *                     value removes one
 * @param stdin        text fed to the process, or null for an empty stdin
 * @param timeout      how long the process may run, or null for no limit
 * @param mergeStderr  whether stderr goes into stdout, interleaved as written (Salt's {@code cmd.run})
 * @param maxBytes     the most bytes kept of each stream; the rest is read and dropped
 * @param inheritEnv   whether the process starts from the minion's environment; false starts it from
 *                     {@code env} alone (a runuser process runs as root and must not see the caller's variables)
 */
public record CommandSpec(List<String> argv, Path cwd, Map<String, String> env, String stdin, Duration timeout,
                          boolean mergeStderr, int maxBytes, boolean inheritEnv) {

    /** 1 MiB per stream: enough for any report, small enough for a return message. */
    public static final int DEFAULT_MAX_BYTES = 1 << 20;

    public CommandSpec {
        argv = List.copyOf(argv);
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("empty command");
        }
        Objects.requireNonNull(cwd, "cwd");
        env = Collections.unmodifiableMap(new LinkedHashMap<>(env == null ? Map.of() : env));
        if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive");
        }
    }

    /** A process that starts from the minion's environment with {@code env} on top. */
    public CommandSpec(List<String> argv, Path cwd, Map<String, String> env, String stdin, Duration timeout,
                       boolean mergeStderr, int maxBytes) {
        this(argv, cwd, env, stdin, timeout, mergeStderr, maxBytes, true);
    }
}
