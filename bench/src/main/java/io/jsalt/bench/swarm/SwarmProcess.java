package io.jsalt.bench.swarm;

import io.jsalt.bench.harness.JavaProcess;
import io.jsalt.bench.harness.ProcSample;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** The driver's handle on one {@link SwarmWorker} JVM: sends its commands and reads its answers. */
final class SwarmProcess implements AutoCloseable {
    private final Process process;
    private final PrintStream commands;
    private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();

    SwarmProcess(SwarmSettings settings, List<String> jvmOptions, Path console) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(JavaProcess.JAVA);
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", JavaProcess.CLASSPATH, SwarmWorker.class.getName()));
        cmd.addAll(settings.toArgs());
        Files.createDirectories(console.getParent());
        process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> read(console), "bench-swarm-reader-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    private void read(Path console) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                Writer log = Files.newBufferedWriter(console, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith(SwarmWorker.REPLY)) {
                    replies.add(line.substring(SwarmWorker.REPLY.length()));
                } else {
                    log.write(line);
                    log.write('\n');
                    log.flush();
                }
            }
        } catch (IOException e) {
            // the worker ended
        } finally {
            replies.add("eof");
        }
    }

    /** Waits for the next answer that starts with {@code word}; the rest of its line. */
    String await(String word, long timeoutMs) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (true) {
            String line;
            try {
                line = replies.poll(Math.max(1, (deadline - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
            if (line == null) {
                throw new IOException("swarm worker " + process.pid() + " did not answer '" + word + "' in time");
            }
            if (line.equals("eof")) {
                replies.add(line);
                throw new IOException("swarm worker " + process.pid() + " ended; see its console log");
            }
            if (line.startsWith(word)) {
                return line.substring(word.length()).trim();
            }
        }
    }

    void send(String command) {
        commands.println(command);
    }

    String ask(String command, String answer, long timeoutMs) throws IOException {
        send(command);
        return await(answer, timeoutMs);
    }

    ProcSample sample() {
        return ProcSample.of(process.pid());
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            send("stop");
            commands.close();
            try {
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
