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
 * Without a built bin/jsalt it runs the same main class with bin/jsalt's JVM options. With an AppCDS
 * archive ({@link #withAppCds}), bin/jsalt gets {@code JSALT_JAVA_OPTS=-XX:SharedArchiveFile=...}: the
 * classes it loads at every start come mapped from the archive instead of parsed from the jars.
 */
final class CliTimer {
    private final Path jsaltHome;
    private final Path appCdsArchive;

    CliTimer(Path jsaltHome) {
        this(jsaltHome, null);
    }

    private CliTimer(Path jsaltHome, Path appCdsArchive) {
        this.jsaltHome = jsaltHome;
        this.appCdsArchive = appCdsArchive;
    }

    /**
     * A timer whose runs use an AppCDS archive at {@code archive}; the archive is made now by one run of
     * the same command with -XX:ArchiveClassesAtExit when it does not exist yet.
     */
    CliTimer withAppCds(Path archive, Path masterConfigDir, Path scratch, String... args) throws IOException {
        if (!Files.exists(archive)) {
            Files.createDirectories(archive.getParent());
            run(masterConfigDir, scratch, "-XX:ArchiveClassesAtExit=" + archive, args);
        }
        return new CliTimer(jsaltHome, archive);
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
        return run(masterConfigDir, outputFile, appCdsArchive == null ? "" : "-XX:SharedArchiveFile=" + appCdsArchive, args);
    }

    private double run(Path masterConfigDir, Path outputFile, String javaOpts, String... args) throws IOException {
        long t0 = System.nanoTime();
        List<String> cmd = command(masterConfigDir, args);
        if (!javaOpts.isEmpty() && !cmd.get(0).endsWith("bin/jsalt")) {
            cmd.add(1, javaOpts);
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(outputFile.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        if (!javaOpts.isEmpty()) {
            pb.environment().put("JSALT_JAVA_OPTS", javaOpts);
        }
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
