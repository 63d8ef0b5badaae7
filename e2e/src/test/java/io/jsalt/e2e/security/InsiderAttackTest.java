package io.jsalt.e2e.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.crypto.Rsa;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.e2e.Cluster;
import io.jsalt.e2e.EventTap;
import io.jsalt.e2e.ForgedReturn;
import io.jsalt.master.request.ClientKey;
import io.jsalt.minion.auth.MasterKeyPin;
import io.jsalt.minion.auth.SignIn;
import io.jsalt.minion.auth.SignInResult;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Transport;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.message.MinionEvent;
import io.jsalt.transport.message.MinionSignature;
import io.jsalt.transport.message.RequestEnvelope;
import io.jsalt.transport.message.ReturnLoad;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * An accepted minion turned hostile: alpha holds the session key and its own key, and tries to speak for
 * beta, pose as the system, forge log lines and operator names, read files outside the file roots, and grow
 * the master's job cache without bound. beta is a real minion that must keep working throughout.
 */
@Tag("security")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InsiderAttackTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String JID = "20260101120000000001";
    private static final int QUOTA = 3;

    private Cluster cluster;
    private EventTap tap;
    private ForgedReturn alpha;
    private final Transport transport = Transport.create();

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        cluster = new Cluster(tmp);
        cluster.startMaster("auto_accept: True", "loop_interval: 1", "job_cache_max_returns_per_minion: " + QUOTA);
        tap = EventTap.connect(cluster.masterSockDir(), WAIT);
        cluster.startMinion("alpha");
        cluster.startMinion("beta", "grains: {role: db}");
        await().atMost(WAIT).untilAsserted(() -> {
            Cluster.Result ping = cluster.jsalt("-t", "5", "*", "test.ping");
            assertThat(ping.stdout()).as(ping.toString()).contains("alpha:\n    True\n", "beta:\n    True\n");
        });
        alpha = ForgedReturn.signInAs("alpha", cluster.minionPki("alpha"), cluster.retPort);
    }

    @AfterAll
    void stop() {
        tap.close();
        transport.close();
        cluster.close();
    }

    private byte[] tok() {
        return Rsa.x931PrivateEncrypt(alpha.key().getPrivate(), "salt".getBytes(StandardCharsets.US_ASCII));
    }

    private Object event(String id, String tag) {
        return alpha.send(new MinionEvent(id, tok(), tag, Map.of("forged", true)).toLoad());
    }

    @Test
    void grainsCannotBeReportedForAnotherMinion() throws Exception {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "_pillar");
        load.put("id", "beta");
        load.put("grains", Map.of("role", "evil"));
        load.put("ver", "2");
        assertThat(alpha.send(MinionSignature.sign(load, alpha.key().getPrivate()))).isEqualTo(false);

        Cluster.Result evil = cluster.jsalt("-t", "5", "-G", "role:evil", "test.ping");
        assertThat(evil.stdout()).doesNotContain("beta:");
        Cluster.Result db = cluster.jsalt("-t", "5", "-G", "role:db", "test.ping");
        assertThat(db.stdout()).as(db.toString()).contains("beta:\n    True\n");
    }

    @Test
    void systemTagsAndAnotherMinionsNameAreRefusedAndOwnTagsPassUnderItsOwnId() {
        assertThat(event("beta", "myapp/deployed")).as("beta's name with alpha's token").isEqualTo(false);
        event("alpha", "salt/job/" + JID + "/ret/beta");
        event("alpha", "salt/minion/beta/start");
        event("alpha", "salt/key");
        assertThat(event("alpha", "jsalt/salt/job/" + JID + "/ret/beta")).isEqualTo(true);

        await().atMost(WAIT).until(() -> !tap.matching(e -> e.tag().startsWith("jsalt/salt/job/")).isEmpty());
        assertThat(tap.matching(e -> Boolean.TRUE.equals(e.data().get("forged")))).allSatisfy(s -> {
            assertThat(s.event().tag()).isEqualTo("jsalt/salt/job/" + JID + "/ret/beta");
            assertThat(s.event().data()).containsEntry("id", "alpha");
        });
    }

    @Test
    void aTagOrAJidWithANewlineForgesNoLogLine() {
        alpha.sendReturn("alpha", "1\nFORGED-JID 00:00:00.000 INFO  [main] io.jsalt.master.Master - all is well", true);
        alpha.sendReturn("beta", "2\nFORGED-JID2 00:00:00.000 INFO  [main] io.jsalt.master.Master - all is well", true);
        try {
            alpha.sendReturn("ghost\nFORGED-ID", JID, true);
        } catch (RuntimeException refusedInTheClear) {
            // an invalid id is answered with a clear error, which this client does not decrypt
        }
        event("alpha", "myapp/x\nFORGED-TAG 00:00:00.000 INFO  [main] io.jsalt.master.Master - all is well");

        await().atMost(WAIT).until(() -> Cluster.read(cluster.masterLog()).contains("myapp/x?FORGED-TAG"));
        assertThat(Cluster.read(cluster.masterLog()).lines()).noneMatch(l -> l.startsWith("FORGED"));
    }

    @Test
    void aJobAMinionStartsItselfCannotNameAnOperator() {
        Map<String, Object> load = new ReturnLoad("alpha", "req", "test.ping", List.of(), true, 0, true).toLoad();
        load.put("user", "admin");
        Object reply = alpha.send(MinionSignature.sign(load, alpha.key().getPrivate()));
        assertThat(reply).isInstanceOf(Map.class);
        String jid = (String) ((Map<?, ?>) reply).get("jid");

        await().atMost(WAIT).until(() -> !tap.matching(e -> e.tag().equals("salt/job/" + jid + "/new")).isEmpty());
        assertThat(tap.matching(e -> e.tag().equals("salt/job/" + jid + "/new")).get(0).event().data())
                .containsEntry("user", "minion:alpha");
    }

    @Test
    void signingInUnderAnotherMinionsIdIsDeniedAndLeavesItsKeyAlone(@TempDir Path pins) throws Exception {
        String betaKey = Files.readString(cluster.masterPki().resolve("minions/beta"));
        try (RequestClient client = transport.connectRequestClient("127.0.0.1", cluster.retPort)) {
            SignInResult r = new SignIn("beta", alpha.key(), new MasterKeyPin(pins, ""), client, Duration.ofSeconds(10)).attempt();
            assertThat(r).isInstanceOf(SignInResult.Rejected.class);
        }
        assertThat(Files.readString(cluster.masterPki().resolve("minions/beta"))).isEqualTo(betaKey);
        Cluster.Result ping = cluster.jsalt("-t", "5", "beta", "test.ping");
        assertThat(ping.stdout()).as(ping.toString()).contains("beta:\n    True\n");
    }

    @Test
    void theFileServerServesNothingOutsideItsRoots() throws IOException {
        Path fileRoot = cluster.root.resolve("srv/jsalt");
        Files.createDirectories(fileRoot.resolve("sub"));
        Files.writeString(fileRoot.resolve("sub/ok.txt"), "served");
        Path secret = cluster.root.resolve("secret.txt");
        Files.writeString(secret, "TOP-SECRET");
        Files.createSymbolicLink(fileRoot.resolve("link.txt"), secret);
        Files.createSymbolicLink(fileRoot.resolve("linkdir"), cluster.root);

        assertThat(serve("base", "sub/ok.txt")).isEqualTo("served");
        for (String path : List.of("../../secret.txt", "../secret.txt", "sub/../../../secret.txt", secret.toString(),
                "salt://../../secret.txt", "..\\..\\secret.txt", "sub/..%2f..%2fsecret.txt", "link.txt", "linkdir/secret.txt",
                "sub/ok.txt\0../../../secret.txt", "./../../secret.txt", "sub//../../../secret.txt")) {
            assertThat(serve("base", path)).as(path).doesNotContain("TOP-SECRET");
            assertThat(alpha.send(fileLoad("_file_hash", "base", path))).as(path).isEqualTo("");
        }
        for (String saltenv : List.of("..", "../..", "/", "base/../..")) {
            assertThat(serve(saltenv, "secret.txt")).as(saltenv).doesNotContain("TOP-SECRET");
        }
        assertThat(String.valueOf(alpha.send(fileLoad("_file_list", "base", "")))).doesNotContain("secret");
    }

    private static Map<String, Object> fileLoad(String cmd, String saltenv, String path) {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", cmd);
        load.put("path", path);
        load.put("saltenv", saltenv);
        load.put("loc", 0);
        load.put("prefix", "");
        return load;
    }

    private String serve(String saltenv, String path) {
        Object reply = alpha.send(fileLoad("_serve_file", saltenv, path));
        if (reply instanceof Map<?, ?> m && m.get("data") != null) {
            Object data = m.get("data");
            return data instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(data);
        }
        return "";
    }

    @Test
    void theJobCacheKeepsAtMostTheQuotaOfReturnsPerMinion() throws Exception {
        String user = System.getProperty("user.name");
        String key = ClientKey.read(cluster.root.resolve("var/cache/jsalt/master"), user);
        try (RequestClient client = transport.connectRequestClient("127.0.0.1", cluster.retPort)) {
            for (int i = 0; i < QUOTA + 3; i++) {
                Map<String, Object> load = new LinkedHashMap<>();
                load.put("cmd", "publish");
                load.put("tgt", "beta");
                load.put("fun", "test.ping");
                load.put("arg", List.of());
                load.put("tgt_type", "glob");
                load.put("user", user);
                load.put("key", key);
                SaltPack.unpack(client.request(RequestEnvelope.clear(load).encode(), Duration.ofSeconds(10)));
            }
        }
        await().atMost(WAIT).until(() -> tap.matching(EventTap.returnOf("beta")).size() >= QUOTA + 3);
        await().atMost(WAIT).until(() -> returnsKeptOf("beta") == QUOTA);
    }

    private long returnsKeptOf(String id) throws Exception {
        Path db = cluster.root.resolve("var/cache/jsalt/master/jobs.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db + "?open_mode=1");
             PreparedStatement s = c.prepareStatement("SELECT COUNT(*) FROM returns WHERE id = ?")) {
            s.setString(1, id);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        }
    }

    /**
     * Private keys, the replay guard, kept returns and job records (a job's arguments). Public keys may be
     * 0644 as Salt writes them, and the file server's cached files are the master's: the 0700 folder at the
     * top of each tree already hides them.
     */
    private static boolean holdsSecrets(Path p) {
        String name = p.getFileName().toString();
        String folder = p.getParent().getFileName().toString();
        return name.endsWith(".pem") || name.equals("seen_publications") || folder.equals("returns") || folder.equals("proc")
                || (Files.isDirectory(p) && (name.equals("proc") || name.equals("returns")));
    }

    @Test
    void keysAndCachesAreReadableByTheirOwnerOnly() throws Exception {
        List<Path> trees = List.of(cluster.masterPki(), cluster.minionPki("alpha"), cluster.minionPki("beta"),
                cluster.minionCachedir("alpha"), cluster.minionCachedir("beta"));
        for (Path tree : trees) {
            try (Stream<Path> all = Files.walk(tree)) {
                assertThat(Files.getPosixFilePermissions(tree)).as(tree.toString())
                        .containsOnly(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);
                for (Path p : all.toList()) {
                    Set<PosixFilePermission> mode = Files.getPosixFilePermissions(p);
                    assertThat(mode).as(p.toString()).doesNotContain(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);
                    if (holdsSecrets(p)) {
                        assertThat(mode).as(p.toString()).doesNotContain(PosixFilePermission.GROUP_READ,
                                PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_EXECUTE);
                    }
                }
            }
        }
        assertThat(Files.getPosixFilePermissions(cluster.masterPki().resolve("master.pem")))
                .isSubsetOf(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        assertThat(Files.exists(cluster.minionCachedir("beta").resolve("seen_publications"))).isTrue();
        assertThat(RsaKeys.readPublicKey(cluster.masterPki().resolve("minions/alpha"))).isEqualTo(alpha.key().getPublic());
    }
}
