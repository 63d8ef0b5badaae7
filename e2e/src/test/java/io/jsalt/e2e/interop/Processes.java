package io.jsalt.e2e.interop;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The processes one test class starts (Salt daemons, jsalt daemons, CLI tools): each tool runs to its end
 * with a bound on its time, each daemon writes its console to a file, and closing stops every one of them
 * with all its children (a salt-master or salt-minion forks its workers and jobs).
 */
final class Processes implements AutoCloseable {
    /** A tool's exit code and output. */
    record Result(int exitCode, String stdout, String stderr) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }

    private final List<Process> started = new ArrayList<>();

    /** Runs a tool to its end (at most {@code seconds}), its stdin empty. */
    Result run(ProcessBuilder pb, int seconds) throws IOException, InterruptedException {
        Process p = pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        synchronized (started) {
            started.add(p);
        }
        byte[][] streams = new byte[2][];
        Thread err = new Thread(() -> {
            try {
                streams[1] = p.getErrorStream().readAllBytes();
            } catch (IOException e) {
                streams[1] = new byte[0];
            }
        });
        err.start();
        streams[0] = p.getInputStream().readAllBytes();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            stop(p);
            throw new AssertionError("did not finish in " + seconds + " s: " + pb.command());
        }
        err.join();
        return new Result(p.exitValue(), new String(streams[0], StandardCharsets.UTF_8), new String(streams[1], StandardCharsets.UTF_8));
    }

    /** Starts a daemon (or a streaming tool) in the background, its output appended to {@code console}. */
    Process spawn(ProcessBuilder pb, Path console) throws IOException {
        Files.createDirectories(console.getParent());
        Process p = pb.redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(console.toFile()))
                .start();
        synchronized (started) {
            started.add(p);
        }
        return p;
    }

    /** TERM to the process, then KILL to whatever of it and its children is left after 10 s. */
    static void stop(Process p) throws InterruptedException {
        if (p == null) {
            return;
        }
        List<ProcessHandle> children = p.descendants().toList();
        p.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        for (ProcessHandle c : children) {
            c.destroyForcibly();
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Whether {@code condition} comes true within {@code limit} (polled; false rather than an exception). */
    static boolean within(java.time.Duration limit, java.util.function.BooleanSupplier condition) {
        try {
            org.awaitility.Awaitility.await().atMost(limit).until(condition::getAsBoolean);
            return true;
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            return false;
        }
    }

    /** True when something takes TCP connections on this loopback port. */
    static boolean listening(int port) {
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            return "";
        }
    }

    static void write(Path file, List<String> lines) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, String.join("\n", lines) + "\n");
    }

    @Override
    public void close() {
        List<Process> all;
        synchronized (started) {
            all = new ArrayList<>(started);
        }
        for (Process p : all) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        for (Process p : all) {
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
