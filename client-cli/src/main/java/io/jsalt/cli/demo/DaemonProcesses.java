package io.jsalt.cli.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Starts jsalt daemons as separate JVMs, detached in their own session so they outlive the demo, and stops
 * them again from their pid files. With the bin/ launchers at hand they start as an operator starts them,
 * with the daemons' own JVM options; without, as the same Java and class path with small ones.
 */
final class DaemonProcesses {
    private final Sandbox sandbox;
    private final Path launcherDir;

    /** @param launcherDir where bin/jsalt-master and bin/jsalt-minion are, or null */
    DaemonProcesses(Sandbox sandbox, Path launcherDir) {
        this.sandbox = sandbox;
        this.launcherDir = launcherDir;
    }

    /** Starts {@code launcher} (e.g. jsalt-master), or {@code mainClass} without the launchers; returns its pid. */
    long start(String name, String launcher, String mainClass, Path configDir) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            cmd.add("/usr/bin/setsid");
        }
        Path script = launcherDir == null ? null : launcherDir.resolve(launcher);
        if (script != null && Files.isExecutable(script)) {
            cmd.add(script.toString()); // it execs java: the pid stays the daemon's
        } else {
            cmd.add(ProcessHandle.current().info().command().orElse("java"));
            cmd.addAll(List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k", "-Xmx128m"));
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        }
        cmd.addAll(List.of("-c", configDir.toString()));
        Path log = sandbox.consoleLog(name);
        Files.createDirectories(log.getParent());
        Files.createDirectories(sandbox.runDir());
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        Files.writeString(sandbox.pidFile(name), Long.toString(p.pid()), StandardCharsets.US_ASCII);
        return p.pid();
    }

    /** Stops every daemon with a pid file: TERM, then KILL after the grace period. Returns how many. */
    int stopAll(Duration grace) throws IOException {
        if (!Files.isDirectory(sandbox.runDir())) {
            return 0;
        }
        List<ProcessHandle> running = new ArrayList<>();
        List<Path> pidFiles;
        try (Stream<Path> s = Files.list(sandbox.runDir())) {
            pidFiles = s.filter(p -> p.toString().endsWith(".pid")).toList();
        }
        for (Path pidFile : pidFiles) {
            jsaltProcess(pidFile).ifPresent(h -> {
                h.destroy();
                running.add(h);
            });
            Files.deleteIfExists(pidFile);
        }
        long deadline = System.nanoTime() + grace.toNanos();
        for (ProcessHandle h : running) {
            try {
                h.onExit().get(Math.max(1, (deadline - System.nanoTime()) / 1_000_000), java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                h.destroyForcibly();
            }
        }
        return running.size();
    }

    /** The live process of a pid file, only if it is one of ours (a recycled pid is left alone). */
    private static Optional<ProcessHandle> jsaltProcess(Path pidFile) {
        try {
            long pid = Long.parseLong(Files.readString(pidFile, StandardCharsets.US_ASCII).trim());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                    .filter(h -> h.info().commandLine().map(c -> c.contains("io.jsalt.cli.daemon")).orElse(true));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }
}
