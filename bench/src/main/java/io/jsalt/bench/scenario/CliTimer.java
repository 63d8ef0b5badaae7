package io.jsalt.bench.scenario;

import io.jsalt.bench.harness.JavaProcess;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Wall time of the real {@code bin/jsalt} process, from fork to exit, as an operator's shell sees it.
 * Without a built bin/jsalt it runs the same main class with bin/jsalt's JVM options, and no archive (then
 * both timers measure the same). bin/jsalt keeps an
 * AppCDS archive of its classes, written by its first run into {@code JSALT_CDS_DIR}: this timer runs it
 * without one ({@code JSALT_CDS_DIR} empty) or, from {@link #withAppCds}, with one made beforehand.
 */
final class CliTimer {
    private final Path jsaltHome;
    private final Path cdsDir;

    CliTimer(Path jsaltHome) {
        this(jsaltHome, null);
    }

    private CliTimer(Path jsaltHome, Path cdsDir) {
        this.jsaltHome = jsaltHome;
        this.cdsDir = cdsDir;
    }

    /** A timer whose runs use bin/jsalt's archive in {@code cdsDir}; one run now makes it if it is not there. */
    CliTimer withAppCds(Path cdsDir, Path masterConfigDir, Path scratch, String... args) throws IOException {
        Files.createDirectories(cdsDir);
        CliTimer timer = new CliTimer(jsaltHome, cdsDir);
        timer.wallMillis(masterConfigDir, scratch, args);
        return timer;
    }

    /** The archive folder this timer's runs use, or null for none. */
    Path cdsDir() {
        return cdsDir;
    }

    /** How the CLI is run, for the docs' exact commands. */
    List<String> command(Path masterConfigDir, String... args) {
        List<String> cmd = new ArrayList<>();
        Path script = jsaltHome == null ? null : jsaltHome.resolve("bin/jsalt");
        if (script != null && Files.isExecutable(script) && Files.isDirectory(jsaltHome.resolve("client-cli/target/lib"))) {
            cmd.add(script.toString());
        } else {
            cmd.addAll(List.of(JavaProcess.JAVA, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp",
                    JavaProcess.CLASSPATH, "io.jsalt.cli.jsalt.JsaltCommand"));
        }
        cmd.addAll(List.of("-c", masterConfigDir.toString()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Runs the CLI once; its wall time in ms, or -1 when it failed. */
    double wallMillis(Path masterConfigDir, Path outputFile, String... args) throws IOException {
        long t0 = System.nanoTime();
        ProcessBuilder pb = new ProcessBuilder(command(masterConfigDir, args)).redirectErrorStream(true)
                .redirectOutput(outputFile.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().put("JSALT_CDS_DIR", cdsDir == null ? "" : cdsDir.toString());
        Process p = pb.start();
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return -1;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            return -1;
        }
        double ms = (System.nanoTime() - t0) / 1e6;
        return p.exitValue() == 0 ? ms : -1;
    }
}
