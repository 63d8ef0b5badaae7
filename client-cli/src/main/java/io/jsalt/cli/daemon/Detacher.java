package io.jsalt.cli.daemon;

import io.jsalt.cli.ExitCode;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code -d}: a JVM cannot fork, so it runs itself again (same java, JVM options, class path and main
 * class, the arguments without {@code -d}) in a new session ({@code setsid}), with stdio on /dev/null,
 * working folder {@code /} and umask 077 (set by a {@code sh} in between: Java cannot set a umask), then
 * waits until the child has written its pid into the pid file, which it does only once it is up. If the
 * child dies first, this says why (its exit code and the end of its log file) and exits with its code.
 */
final class Detacher {
    private static final Path SETSID = Path.of("/usr/bin/setsid");
    private static final int TAIL_LINES = 20;
    private static final long POLL_MILLIS = 50;

    private final String name;
    private final List<String> command;
    private final Path pidFile;
    private final Path logFile;
    private final Duration startTimeout;
    private final PrintStream err;

    /**
     * @param name      the daemon's name, for messages
     * @param mainClass the class whose main the child runs
     * @param args      the child's arguments (already without -d, with absolute paths)
     */
    Detacher(String name, String mainClass, List<String> args, Path pidFile, Path logFile, Duration startTimeout,
            PrintStream err) {
        this.name = name;
        this.command = childCommand(mainClass, args);
        this.pidFile = pidFile;
        this.logFile = logFile;
        this.startTimeout = startTimeout;
        this.err = err;
    }

    /** The command the child runs: [setsid] sh -c 'umask 077; exec "$@"' sh java [jvm options] -cp CP main args. */
    static List<String> childCommand(String mainClass, List<String> args) {
        List<String> cmd = new ArrayList<>();
        if (Files.isExecutable(SETSID)) {
            // a child of the JVM is no process group leader, so setsid calls setsid() and execs: same pid
            cmd.add(SETSID.toString());
        }
        cmd.addAll(List.of("/bin/sh", "-c", "umask 077; exec \"$@\"", "sh"));
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        cmd.addAll(args);
        return List.copyOf(cmd);
    }

    List<String> command() {
        return command;
    }

    /** Starts the child and waits for it to be up; the exit code of this (parent) process. */
    ExitCode detach() throws IOException, InterruptedException {
        long logSizeBefore = Files.exists(logFile) ? Files.size(logFile) : 0;
        File devNull = new File("/dev/null");
        Process child = new ProcessBuilder(command)
                .directory(new File("/"))
                .redirectInput(ProcessBuilder.Redirect.from(devNull))
                .redirectOutput(ProcessBuilder.Redirect.to(devNull))
                .redirectError(ProcessBuilder.Redirect.to(devNull))
                .start();
        long deadline = System.nanoTime() + startTimeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (pidFileNames(child.pid())) {
                return ExitCode.OK;
            }
            if (!child.isAlive()) {
                int code = child.exitValue();
                err.println("ERROR: " + name + " stopped while starting (exit code " + code + ")" + logTail(logSizeBefore));
                return code == 0 ? ExitCode.SOFTWARE : ExitCode.of(code);
            }
            Thread.sleep(POLL_MILLIS); // the detached child tells nothing until its pid file appears: poll for it
        }
        child.destroy();
        err.println("ERROR: " + name + " was not up after " + startTimeout.toSeconds() + " s (no pid in " + pidFile
                + "): stopped it" + logTail(logSizeBefore));
        return ExitCode.SOFTWARE;
    }

    /** Reads the file only (never locks it: the child may be taking it at this moment). */
    private boolean pidFileNames(long pid) {
        try {
            return Files.readString(pidFile, StandardCharsets.US_ASCII).trim().equals(Long.toString(pid));
        } catch (IOException e) {
            return false;
        }
    }

    /** What the child wrote to its log file since it was started, the last lines of it. */
    private String logTail(long from) {
        try (RandomAccessFile f = new RandomAccessFile(logFile.toFile(), "r")) {
            long start = f.length() >= from ? from : 0;
            byte[] bytes = new byte[(int) Math.min(f.length() - start, 256 * 1024)];
            f.seek(f.length() - bytes.length);
            f.readFully(bytes);
            List<String> lines = Arrays.asList(new String(bytes, StandardCharsets.UTF_8).split("\n"));
            lines = lines.stream().filter(l -> !l.isBlank()).toList();
            if (lines.isEmpty()) {
                return noLog();
            }
            List<String> tail = lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size());
            return "; the end of its log file " + logFile + ":\n  " + String.join("\n  ", tail);
        } catch (IOException e) {
            return noLog();
        }
    }

    private String noLog() {
        return "; nothing in its log file " + logFile + ": run it without -d to see why";
    }
}
