package io.jsalt.cli.testing;

import io.jsalt.minion.testing.SaltVectors;
import io.jsalt.config.MasterConfig;
import io.jsalt.config.MinionConfig;
import io.jsalt.master.Master;
import io.jsalt.master.events.LocalEventClient;
import io.jsalt.minion.Minion;
import io.jsalt.transport.Transport;
import io.jsalt.transport.event.EventFrame;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A master and any number of minions in this JVM, all on ONE {@link Transport} (many minions per JVM, no
 * static state), configured with the builders on free loopback ports under a temp folder. The master's
 * config is also written as a file in {@link #configDir()}, so the CLI tools can run against it. Keys come
 * from the Salt vectors, so nothing waits for RSA key generation.
 */
public final class InProcessCluster implements AutoCloseable {
    private final Path root;
    private final Transport transport = Transport.create();
    private final MasterConfig masterConfig;
    private final Path configDir;
    private final List<Minion> minions = new ArrayList<>();
    private final List<EventFrame> seen = new CopyOnWriteArrayList<>();
    private Master master;
    private LocalEventClient events;
    private boolean closed;

    public InProcessCluster(Path root) {
        this.root = root;
        int[] ports = freePorts();
        String rootDir = root.resolve("master").toAbsolutePath().toString();
        configDir = root.resolve("master-conf");
        masterConfig = MasterConfig.builder(Path.of(rootDir)).configDir(configDir)
                .interfaceAddress("127.0.0.1").publishPort(ports[0]).retPort(ports[1]).workerThreads(4).timeout(10)
                .build();
        try {
            Files.createDirectories(configDir);
            Files.writeString(configDir.resolve("master"), String.join("\n",
                    "root_dir: " + rootDir,
                    "interface: 127.0.0.1",
                    "publish_port: " + ports[0],
                    "ret_port: " + ports[1],
                    "worker_threads: 4",
                    "timeout: 10",
                    ""));
            Files.createDirectories(masterConfig.pkiDir());
            Files.writeString(masterConfig.pkiDir().resolve("master.pem"), SaltVectors.text("keys/master.pem"));
            Files.writeString(masterConfig.pkiDir().resolve("master.pub"), SaltVectors.text("keys/master.pub"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int[] freePorts() {
        try (ServerSocket a = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ServerSocket b = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return new int[] {a.getLocalPort(), b.getLocalPort()};
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts the master and connects a reader to its event bus, which records every event from now on. */
    public InProcessCluster startMaster() throws IOException {
        master = new Master(masterConfig, transport);
        master.start();
        events = LocalEventClient.connect(masterConfig.sockDir(), Duration.ofSeconds(5));
        return this;
    }

    /** Starts minions {@code prefix-01} .. {@code prefix-NN} on the shared transport. */
    public List<Minion> startMinions(String prefix, int count) throws IOException {
        List<Minion> started = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            String id = String.format("%s-%02d", prefix, i);
            MinionConfig config = MinionConfig.builder(root.resolve("minions").resolve(id)).id(id)
                    .master("127.0.0.1").masterPort(masterConfig.retPort()).publishPort(masterConfig.publishPort())
                    .acceptanceWaitTime(0.2).randomReauthDelay(0).authTimeout(5)
                    .build();
            Files.createDirectories(config.pkiDir());
            Files.writeString(config.pkiDir().resolve("minion.pem"), SaltVectors.text("keys/minion.pem"));
            Files.writeString(config.pkiDir().resolve("minion.pub"), SaltVectors.text("keys/minion.pub"));
            Minion minion = new Minion(config, transport);
            minions.add(minion);
            started.add(minion);
            minion.start();
        }
        return started;
    }

    /** Every event the master fired since it started (reads what has arrived so far). */
    public List<EventFrame> events() throws IOException {
        Optional<EventFrame> next;
        while ((next = events.next(Duration.ZERO)).isPresent()) {
            seen.add(next.get());
        }
        return seen;
    }

    public boolean sawEvent(String tag) throws IOException {
        return events().stream().anyMatch(e -> e.tag().equals(tag));
    }

    public Master master() {
        return master;
    }

    public MasterConfig masterConfig() {
        return masterConfig;
    }

    /** The folder holding the master's config file, for {@code -c}. */
    public Path configDir() {
        return configDir;
    }

    public List<Minion> minions() {
        return minions;
    }

    /** Minions first, then the event reader and the master, then the shared transport. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        minions.forEach(Minion::close);
        if (events != null) {
            events.close();
        }
        if (master != null) {
            master.close();
        }
        transport.close();
    }
}
