package io.jsalt.master.testing;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A private OpenLDAP for tests: Debian's {@code slapd} (back_mdb) on a free port of 127.0.0.1 with a config and a
 * database in a temporary folder, filled with LDIF through {@code ldapadd} as its root DN. Under root slapd drops
 * to {@code nobody} ({@code -u}/{@code -g}) before it serves, so it never runs as root; it runs in the foreground
 * ({@code -d 0}) as this JVM's child and dies with {@link #close()} (or the JVM's shutdown hook).
 */
public final class Slapd implements AutoCloseable {
    public static final String SUFFIX = "dc=example,dc=org";
    public static final String ROOT_DN = "cn=admin," + SUFFIX;
    private static final String UNPRIVILEGED = "nobody";

    private final Path dir;
    private final int port;
    private final String rootPassword;
    private final Process process;
    private final Thread cleanup;

    private Slapd(Path dir, int port, String rootPassword, Process process) {
        this.dir = dir;
        this.port = port;
        this.rootPassword = rootPassword;
        this.process = process;
        this.cleanup = new Thread(this::stop, "jsalt-slapd-cleanup");
    }

    /** A running slapd with an empty {@code dc=example,dc=org}. */
    public static Slapd start() {
        Path dir;
        try {
            dir = Files.createTempDirectory("jsalt-slapd-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
            Path db = Files.createDirectory(dir.resolve("db"));
            if (isRoot()) {
                giveToUnprivileged(db);
            }
            Files.writeString(dir.resolve("slapd.conf"), """
                    include /etc/ldap/schema/core.schema
                    include /etc/ldap/schema/cosine.schema
                    include /etc/ldap/schema/nis.schema
                    include /etc/ldap/schema/inetorgperson.schema
                    modulepath /usr/lib/ldap
                    moduleload back_mdb
                    pidfile %1$s/slapd.pid
                    database mdb
                    maxsize 10485760
                    suffix "%2$s"
                    rootdn "%3$s"
                    rootpw %4$s
                    directory %1$s
                    access to attrs=userPassword by anonymous auth by self read by * none
                    access to * by * read
                    """.formatted(db, SUFFIX, ROOT_DN, "root-secret"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare a folder for slapd", e);
        }
        int port = freePort();
        List<String> line = new ArrayList<>(List.of("/usr/sbin/slapd", "-d", "0", "-h", "ldap://127.0.0.1:" + port + "/",
                "-f", dir.resolve("slapd.conf").toString()));
        if (isRoot()) {
            line.addAll(List.of("-u", UNPRIVILEGED, "-g", "nogroup"));
        }
        Process process;
        try {
            process = new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(dir.resolve("slapd.out").toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start /usr/sbin/slapd (apt-get install slapd; .ci/run does)", e);
        }
        Slapd slapd = new Slapd(dir, port, "root-secret", process);
        Runtime.getRuntime().addShutdownHook(slapd.cleanup);
        try {
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException("slapd exited " + process.exitValue() + ": " + Files.readString(dir.resolve("slapd.out")));
                }
                return listening(port);
            });
            slapd.add("""
                    dn: %1$s
                    objectClass: dcObject
                    objectClass: organization
                    o: example
                    dc: example
                    """.formatted(SUFFIX));
            return slapd;
        } catch (RuntimeException e) {
            slapd.close();
            throw e;
        }
    }

    /** Adds LDIF entries as the root DN (Debian's ldapadd, from ldap-utils). */
    public void add(String ldif) {
        try {
            Path file = Files.createTempFile(dir, "add-", ".ldif");
            Files.writeString(file, ldif);
            Process p = new ProcessBuilder("ldapadd", "-x", "-H", url(), "-D", ROOT_DN, "-w", rootPassword, "-f", file.toString())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException("ldapadd failed: " + out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run ldapadd (apt-get install ldap-utils; .ci/run does)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    public int port() {
        return port;
    }

    public String url() {
        return "ldap://127.0.0.1:" + port;
    }

    public String rootPassword() {
        return rootPassword;
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the hook runs stop() itself
        }
    }

    private void stop() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("Slapd: cannot remove " + dir + ": " + e.getMessage());
        }
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            return true;
        } catch (IOException e) {
            return false;
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
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }
}
