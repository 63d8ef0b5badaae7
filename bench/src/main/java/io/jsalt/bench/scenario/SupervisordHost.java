package io.jsalt.bench.scenario;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
/** Debian's supervisord, in the foreground, with the socket and RPC interface of Debian's default config. */
final class SupervisordHost implements Supervise.Host {
    private final Path dir;
    private final Path confd;
    private Process process;
    private final List<ProcessHandle> started = new ArrayList<>();

    SupervisordHost(Path dir, Path confd) {
        this.dir = dir;
        this.confd = confd;
    }

    @Override
    public String name() {
        try {
            Process v = new ProcessBuilder(Supervise.SUPERVISORD.toString(), "--version").redirectErrorStream(true).start();
            String version = new String(v.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            v.waitFor(10, TimeUnit.SECONDS);
            return "supervisord " + version;
        } catch (IOException e) {
            return "supervisord";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "supervisord";
        }
    }

    @Override
    public long launch() throws IOException {
        Files.createDirectories(dir.resolve("log"));
        Path conf = dir.resolve("supervisord.conf");
        Files.writeString(conf, String.join("\n", "[unix_http_server]", "file=" + dir.resolve("supervisor.sock"),
                "chmod=0700", "", "[supervisord]", "logfile=" + dir.resolve("supervisord.log"),
                "pidfile=" + dir.resolve("supervisord.pid"), "childlogdir=" + dir.resolve("log"), "", "[rpcinterface:supervisor]",
                "supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface", "", "[supervisorctl]",
                "serverurl=unix://" + dir.resolve("supervisor.sock"), "", "[include]", "files = " + confd + "/*.conf") + "\n");
        process = new ProcessBuilder(Supervise.SUPERVISORD.toString(), "-n", "-c", conf.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("console.out").toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        return process.pid();
    }

    @Override
    public void beforeKills() {
        // supervisord writes every state change to its log, with milliseconds
    }

    /** From supervisord's log: {@code 2026-11-28 00:16:21,112 INFO success: p0000 entered RUNNING state, ...}. */
    @Override
    public Map<String, Long> runningAfter(Map<String, Long> killedAt) throws IOException {
        java.time.format.DateTimeFormatter at = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");
        java.util.regex.Pattern line = java.util.regex.Pattern.compile("^(\\S+ \\S+) INFO success: (\\S+) entered RUNNING state.*");
        Map<String, Long> out = new LinkedHashMap<>();
        for (String l : Files.readAllLines(dir.resolve("supervisord.log"), StandardCharsets.UTF_8)) {
            java.util.regex.Matcher m = line.matcher(l);
            if (m.matches() && killedAt.containsKey(m.group(2)) && !out.containsKey(m.group(2))) {
                long when = java.time.LocalDateTime.parse(m.group(1), at).atZone(java.time.ZoneId.systemDefault())
                        .toInstant().toEpochMilli();
                if (when >= killedAt.get(m.group(2))) {
                    out.put(m.group(2), when);
                }
            }
        }
        return out;
    }

    @Override
    public void close() {
        if (process == null) {
            return;
        }
        process.descendants().forEach(started::add);
        process.destroy(); // supervisord stops its programs on TERM
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        started.forEach(ProcessHandle::destroyForcibly);
    }
}
