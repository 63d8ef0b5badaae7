package io.jsalt.master.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A private PostgreSQL for tests: a cluster made by Debian's {@code initdb} in a temporary folder, served by
 * {@code pg_ctl} on a free port of 127.0.0.1 (and a Unix socket in the folder), password-checked over TCP
 * (scram-sha-256) so that a test proves the password is sent. PostgreSQL refuses to run as root, so under
 * root the folder is given to {@code nobody} and the tools run through {@code runuser}. One cluster per
 * test class ({@link #start()} in {@code @BeforeAll}, {@link #close()} in {@code @AfterAll}), a fresh
 * database per test ({@link #createDatabase()}); a JVM shutdown hook removes what a crashed test left.
 */
public final class PgCluster implements AutoCloseable {
    public static final String SUPERUSER = "postgres";
    private static final String UNPRIVILEGED = "nobody";
    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static final long TOOL_TIMEOUT_SECONDS = 120;

    private final Path bin;
    private final Path dir;
    private final Path data;
    private final String password;
    private final int port;
    private final Thread cleanup;
    private boolean running;

    private PgCluster(Path bin, Path dir, String password, int port) {
        this.bin = bin;
        this.dir = dir;
        this.data = dir.resolve("data");
        this.password = password;
        this.port = port;
        this.cleanup = new Thread(this::destroyQuietly, "jsalt-pg-cluster-cleanup");
    }

    /** A new cluster, initialised and running. */
    public static PgCluster start() {
        Path bin = binaries();
        String password = HexFormat.of().formatHex(new SecureRandom().generateSeed(12));
        Path dir;
        try {
            dir = Files.createTempDirectory("jsalt-pg-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Files.writeString(dir.resolve("pwfile"), password + "\n");
            if (isRoot()) {
                giveToUnprivileged(dir);
                giveToUnprivileged(dir.resolve("pwfile"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare a folder for PostgreSQL", e);
        }
        PgCluster cluster = new PgCluster(bin, dir, password, freePort());
        Runtime.getRuntime().addShutdownHook(cluster.cleanup);
        try {
            cluster.run(bin.resolve("initdb").toString(), "-D", cluster.data.toString(), "-U", SUPERUSER,
                    "--pwfile=" + dir.resolve("pwfile"), "--auth-local=trust", "--auth-host=scram-sha-256",
                    "-E", "UTF8", "--locale=C", "--no-sync");
            cluster.startServer();
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** Starts the stopped server again, on the same port and data; nothing when it runs. */
    public synchronized void startServer() {
        if (running) {
            return;
        }
        // fsync off: the tests stop the server cleanly (pg_ctl stop) and never need to survive a power cut
        run(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", dir.resolve("server.log").toString(),
                "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off", "-w", "-t", "60", "start");
        running = true;
        run(bin.resolve("pg_isready").toString(), "-h", "127.0.0.1", "-p", String.valueOf(port), "-t", "30");
    }

    /** Stops the server as an operator would (fast: clients are disconnected, nothing is lost). */
    public synchronized void stopServer() {
        if (running) {
            run(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "fast", "-w", "-t", "60", "stop");
            running = false;
        }
    }

    public int port() {
        return port;
    }

    public String password() {
        return password;
    }

    /** The server's folder: {@code server.log} holds what PostgreSQL said. */
    public Path folder() {
        return dir;
    }

    /** A new, empty database with a name no other test has used. */
    public String createDatabase() {
        String name = "jsalt_test_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
        try (Connection c = connect("postgres"); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name + ": " + e.getMessage(), e);
        }
        return name;
    }

    /** A plain JDBC connection to {@code db} as the superuser, for reading what a test wrote. */
    public Connection connect(String db) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", SUPERUSER);
        p.setProperty("password", password);
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + db, p);
    }

    /** Stops the server and removes the folder. */
    @Override
    public synchronized void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException e) {
            // the JVM is already exiting: the hook runs destroyQuietly itself
        }
        destroyQuietly();
    }

    private synchronized void destroyQuietly() {
        try {
            stopServer();
        } catch (RuntimeException e) {
            System.err.println("PgCluster: " + e.getMessage());
        }
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("PgCluster: cannot remove " + dir + ": " + e.getMessage());
        }
    }

    /** Runs a PostgreSQL tool (as nobody under root), failing with its output when it fails. */
    private void run(String... command) {
        List<String> line = new ArrayList<>();
        if (isRoot()) {
            line.addAll(List.of("runuser", "-u", UNPRIVILEGED, "--"));
        }
        line.addAll(List.of(command));
        Path out = dir.resolve("tool.out");
        try {
            Process p = new ProcessBuilder(line).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).start();
            if (!p.waitFor(TOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", line) + ": no answer after " + TOOL_TIMEOUT_SECONDS + " s");
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", line) + " exited " + p.exitValue() + ":\n"
                        + Files.readString(out) + serverLog());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + line, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + line, e);
        }
    }

    private String serverLog() {
        Path log = dir.resolve("server.log");
        try {
            return Files.exists(log) ? "\nserver.log:\n" + Files.readString(log) : "";
        } catch (IOException e) {
            return "";
        }
    }

    /** Debian's newest installed PostgreSQL, or the folder JSALT_PG_BIN names. */
    private static Path binaries() {
        String given = System.getenv("JSALT_PG_BIN");
        if (given != null) {
            return Path.of(given);
        }
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("initdb")))
                    .max(Comparator.comparingInt(b -> Integer.parseInt(b.getParent().getFileName().toString().replaceAll("\\D", "0"))))
                    .orElseThrow(() -> new IllegalStateException("no PostgreSQL under /usr/lib/postgresql (apt-get install postgresql; .ci/run does)"));
        } catch (IOException e) {
            throw new IllegalStateException("no PostgreSQL under /usr/lib/postgresql (apt-get install postgresql; .ci/run does)", e);
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static void giveToUnprivileged(Path path) throws IOException {
        UserPrincipalLookupService users = path.getFileSystem().getUserPrincipalLookupService();
        PosixFileAttributeView view = Files.getFileAttributeView(path, PosixFileAttributeView.class);
        view.setOwner(users.lookupPrincipalByName(UNPRIVILEGED));
        GroupPrincipal group = users.lookupPrincipalByGroupName("nogroup");
        view.setGroup(group);
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }
}
