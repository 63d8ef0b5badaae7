package io.jsalt.bench.scenario;

import io.jsalt.bench.harness.DaemonJvm;
import io.jsalt.bench.harness.JavaProcess;
import io.jsalt.bench.harness.MasterProcess;
import io.jsalt.bench.swarm.KeyCache;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
/** One jsalt minion (bin/jsalt-minion's JVM options) reading the conf.d, signed in to a jsalt master. */
final class JsaltMinionHost implements Supervise.Host {
    private final BenchOptions o;
    private final Path root;
    private final Path confd;
    private MasterProcess master;
    private Process minion;
    private io.jsalt.master.events.LocalEventClient events;
    private Thread listener;
    /** Each RUNNING event seen: program, since (epoch ms), pid. */
    private final List<Running> running = java.util.Collections.synchronizedList(new ArrayList<>());
    /** supervisor_on_stop: leave (the programs outlive the minion, for the next one to adopt) instead of stop. */
    private final boolean leave;
    private Path conf;

    record Running(String program, long since, long pid) {
    }

    JsaltMinionHost(BenchOptions o, Path root, Path confd) {
        this(o, root, confd, false);
    }

    JsaltMinionHost(BenchOptions o, Path root, Path confd, boolean leave) {
        this.o = o;
        this.root = root;
        this.confd = confd;
        this.leave = leave;
    }

    @Override
    public String name() {
        return "jsalt minion";
    }

    /** The master is started first, outside the timing: the figure is the minion's. */
    @Override
    public long launch() throws IOException {
        KeyCache keys = new KeyCache(o.cacheDir());
        keys.ensure(1, 1);
        String id = KeyCache.id(0);
        master = new MasterProcess(root, o.masterJvm(), List.of("worker_threads: 2"));
        keys.preAccept(master.pkiDir(), List.of(id));
        master.start();
        Path pki = root.resolve("etc/jsalt/pki/" + id);
        Files.createDirectories(pki);
        Files.copy(keys.privateKey(id), pki.resolve("minion.pem"), StandardCopyOption.REPLACE_EXISTING);
        Files.copy(keys.publicKey(id), pki.resolve("minion.pub"), StandardCopyOption.REPLACE_EXISTING);
        conf = root.resolve("conf/" + id);
        Files.createDirectories(conf);
        Files.writeString(conf.resolve("minion"), String.join("\n", "root_dir: " + root, "id: " + id, "master: 127.0.0.1",
                "master_port: " + master.retPort(), "publish_port: " + master.publishPort(), "pki_dir: /etc/jsalt/pki/" + id,
                "cachedir: /var/cache/jsalt/" + id, "log_file: /var/log/jsalt/" + id, "log_level: warning",
                "supervisor_dir: /" + root.relativize(confd), "supervisor_on_stop: " + (leave ? "leave" : "stop"),
                "graceful_shutdown_timeout: 60") + "\n");
        minion = JavaProcess.start(DaemonJvm.MINION, "io.jsalt.cli.daemon.MinionDaemon", List.of("-c", conf.toString()),
                root.resolve("console/minion.out"));
        return minion.pid();
    }

    /** Listens to the master's bus for the minion's {@code jsalt/supervisor/<id>/<program>/RUNNING} events. */
    @Override
    public void beforeKills() throws IOException {
        events = io.jsalt.master.events.LocalEventClient.connect(master.config().sockDir(), Duration.ofSeconds(10));
        listener = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    events.next(Duration.ofSeconds(1)).ifPresent(e -> {
                        String[] tag = e.tag().split("/");
                        if (tag.length == 5 && tag[1].equals("supervisor") && tag[4].equals("RUNNING")
                                && e.data().get("since") instanceof Number since && e.data().get("pid") instanceof Number pid) {
                            running.add(new Running(tag[3], Math.round(since.doubleValue() * 1000), pid.longValue()));
                        }
                    });
                }
            } catch (IOException e) {
                // the bus closed: the benchmark is over
            }
        }, "supervise-events");
        listener.setDaemon(true);
        listener.start();
    }

    @Override
    public Map<String, Long> runningAfter(Map<String, Long> killedAt) {
        Map<String, Long> out = new LinkedHashMap<>();
        synchronized (running) {
            for (Running e : running) {
                Long killed = killedAt.get(e.program());
                if (killed != null && e.since() >= killed && !out.containsKey(e.program())) {
                    out.put(e.program(), e.since());
                }
            }
        }
        return out;
    }

    /** The pid of each program's first RUNNING event at or after {@code after} (epoch ms). */
    Map<String, Long> runningPids(long after) {
        Map<String, Long> out = new LinkedHashMap<>();
        synchronized (running) {
            running.stream().filter(e -> e.since() >= after).forEach(e -> out.putIfAbsent(e.program(), e.pid()));
        }
        return out;
    }

    /** Stops the minion (TERM: with {@code leave}, its programs run on) and starts the next one; returns its pid. */
    long restartMinion() throws IOException {
        minion.destroy();
        try {
            if (!minion.waitFor(60, TimeUnit.SECONDS)) {
                throw new IOException("the minion did not stop within 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        minion = JavaProcess.start(DaemonJvm.MINION, "io.jsalt.cli.daemon.MinionDaemon", List.of("-c", conf.toString()),
                root.resolve("console/minion-2.out"));
        return minion.pid();
    }

    @Override
    public void close() {
        if (listener != null) {
            listener.interrupt();
        }
        if (events != null) {
            events.close();
        }
        if (minion != null) {
            List<ProcessHandle> started = minion.descendants().toList();
            minion.destroy(); // supervisor_on_stop: stop
            try {
                if (!minion.waitFor(60, TimeUnit.SECONDS)) {
                    minion.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                minion.destroyForcibly();
            }
            started.forEach(ProcessHandle::destroyForcibly);
        }
        // programs adopted from an earlier minion are not this one's descendants
        List<Running> seen;
        synchronized (running) {
            seen = List.copyOf(running);
        }
        seen.forEach(r -> ProcessHandle.of(r.pid()).filter(h -> h.info().commandLine().orElse("").contains("sleep "))
                .ifPresent(ProcessHandle::destroyForcibly));
        if (master != null) {
            master.close();
        }
    }
}
