package io.jsalt.bench.harness;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starts JVMs on this JVM's java and class path, as the e2e cluster and the demo do. */
public final class JavaProcess {
    public static final String JAVA = ProcessHandle.current().info().command().orElse("java");
    public static final String CLASSPATH = System.getProperty("java.class.path");

    private JavaProcess() {
    }

    /** Starts {@code mainClass} with the JVM options and arguments, output appended to {@code console}. */
    public static Process start(List<String> jvmOptions, String mainClass, List<String> args, Path console) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(JAVA);
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", CLASSPATH, mainClass));
        cmd.addAll(args);
        Files.createDirectories(console.getParent());
        ProcessBuilder builder = new ProcessBuilder(cmd);
        // As bin/jsalt-env does for the daemons: HotSpot's thread-suspend signal off SIGUSR2 (their log reopen),
        // so a JFR profile of the master samples instead of reopening its log 1,000 times a second.
        builder.environment().putIfAbsent("_JAVA_SR_SIGNUM", "39");
        return builder.redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(console.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
    }

    /**
     * Starts a daemon through its launcher script ({@code bin/jsalt-minion}), with its class path, and
     * {@code jvmOptions} in place of its default JVM options ({@code JSALT_DAEMON_JAVA_OPTS}; empty: none). The
     * launcher execs java, so the process is the JVM.
     */
    public static Process startLauncher(Path script, List<String> jvmOptions, List<String> args, Path console) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("bash", script.toString()));
        cmd.addAll(args);
        Files.createDirectories(console.getParent());
        ProcessBuilder builder = new ProcessBuilder(cmd);
        builder.environment().put("JSALT_DAEMON_JAVA_OPTS", String.join(" ", jvmOptions));
        builder.environment().put("JAVA_HOME", Path.of(JAVA).getParent().getParent().toString());
        return builder.redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(console.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
    }

    /** TERM, then KILL after {@code graceSeconds}; also kills anything the process started. */
    public static void stop(Process p, int graceSeconds) {
        if (p == null) {
            return;
        }
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        if (p.isAlive()) {
            p.destroy();
            try {
                if (!p.waitFor(graceSeconds, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
    }
}
