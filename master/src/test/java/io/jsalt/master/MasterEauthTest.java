package io.jsalt.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.config.MasterConfig;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.request.ClientKey;
import io.jsalt.master.support.HandMadeMinion;
import io.jsalt.master.support.TestKeys;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Transport;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.message.RequestEnvelope;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rights enforced by the master itself: eauth requests (a token from {@code mk_token}, or inline credentials)
 * sent to a whole master's request port over real loopback sockets, without the root client key. The
 * master's config file holds {@code external_auth} with a {@code file} backend; three accepted minions, one
 * of them (web1) a hand-made minion that answers.
 */
class MasterEauthTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path root;
    Transport transport;
    Master master;
    RequestClient client;
    HandMadeMinion web1;
    Path users;
    MasterConfig config;

    @BeforeEach
    void setUp() throws Exception {
        transport = Transport.create();
        int publishPort = freePort();
        int retPort = freePort();
        while (retPort == publishPort) {
            retPort = freePort();
        }
        Path conf = Files.createDirectories(root.resolve("conf"));
        users = Files.writeString(root.resolve("users"), "thatch:pw-thatch\ndeploy:pw-deploy\nops:pw-ops\nlister:pw-lister\n");
        Files.writeString(conf.resolve("master"), """
                external_auth:
                  file:
                    ^filename: %s
                    thatch:
                      - test.*
                    deploy:
                      - 'web*':
                        - test.ping
                    ops:
                      - '@runner'
                    lister:
                      - 'web*':
                        - cmd.run:
                            args: ['ls .*']
                token_expire: 3600
                """.formatted(users));
        config = MasterConfig.builder(root).configDir(conf).interfaceAddress("127.0.0.1").publishPort(publishPort)
                .retPort(retPort).workerThreads(2).autoAccept(true).timeout(3).build();
        Files.createDirectories(config.pkiDir());
        Path pem = config.pkiDir().resolve("master.pem");
        Files.writeString(pem, TestKeys.masterPrivatePem());
        Files.setPosixFilePermissions(pem, PosixFilePermissions.fromString("r--------"));
        master = new Master(config, Transport::create);
        master.start();
        master.keys().store(KeyState.ACCEPTED, "web2", TestKeys.pem(TestKeys.minion(2)));
        master.keys().store(KeyState.ACCEPTED, "db1", TestKeys.pem(TestKeys.minion(3)));
        web1 = HandMadeMinion.start("web1", TestKeys.minion(1), transport, master.requestPort(), master.publishPort(),
                RsaKeys.readPublicKey(config.pkiDir().resolve("master.pub")), job -> true);
        client = transport.connectRequestClient("127.0.0.1", master.requestPort());
    }

    @AfterEach
    void tearDown() throws Exception {
        client.close();
        web1.close();
        master.close();
        transport.close();
    }

    @Test
    void anAllowedPublishByTokenGoesOutToTheCheckedMinionsUnderTheUsersOwnName() {
        String token = login("deploy", "pw-deploy");

        Map<String, Object> reply = publish("web*", "test.ping", Map.of("token", token), "root");

        assertThat(reply).doesNotContainKey("error");
        String jid = Wire.string(reply, "jid");
        assertThat(Wire.list(reply, "minions")).containsExactly("web1", "web2");
        Job job = master.jobs().job(jid).orElseThrow();
        assertThat(job.user()).isEqualTo("deploy"); // the load said root: nobody speaks for another
        assertThat(job.tgtType()).isEqualTo("list");
        assertThat(job.tgt()).isEqualTo(List.of("web1", "web2"));
        await().atMost(WAIT).until(() -> master.jobs().returns(jid).size() == 1);
    }

    @Test
    void aUserReadsTheReturnsOfTheirOwnJobsOnlyWithoutTheEventSocket() {
        String deploy = login("deploy", "pw-deploy");
        String thatch = login("thatch", "pw-thatch");
        String jid = Wire.string(publish("web*", "test.ping", Map.of("token", deploy), "deploy"), "jid");

        await().atMost(WAIT).until(() -> Wire.map(call(Map.of("cmd", "job_returns", "jid", jid, "token", deploy)), "returns")
                .containsKey("web1"));
        Map<String, Object> own = Wire.map(Wire.map(call(Map.of("cmd", "job_returns", "jid", jid, "token", deploy)), "returns"), "web1");
        assertThat(own).containsEntry("return", true);

        assertThat(call(Map.of("cmd", "job_returns", "jid", jid, "token", thatch))).containsEntry("error", "Authorization error occurred.");
        assertThat(call(Map.of("cmd", "job_returns", "jid", "20990101000000000000", "token", thatch)))
                .containsEntry("error", "Authorization error occurred.");
        assertThat(call(Map.of("cmd", "job_returns", "jid", jid))).containsEntry("error", "Authentication error occurred.");
    }

    @Test
    void aUserCannotReadAJobTheRootCliPublishedUnderTheirNameBeyondTheirRights() throws Exception {
        String deploy = login("deploy", "pw-deploy");
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "publish");
        load.put("tgt", "*");
        load.put("fun", "test.echo");
        load.put("arg", List.of("root's secret"));
        load.put("tgt_type", "glob");
        load.put("ret", "");
        load.put("jid", "");
        load.put("user", "deploy"); // the root CLI run by an OS user who is also called deploy
        load.put("key", Files.readString(ClientKey.file(config.cachedir(), System.getProperty("user.name"))).trim());
        String jid = Wire.string(call(load), "jid");
        await().atMost(WAIT).until(() -> !master.jobs().returns(jid).isEmpty());

        assertThat(master.jobs().job(jid).orElseThrow().user()).isEqualTo("deploy");
        assertThat(call(Map.of("cmd", "job_returns", "jid", jid, "token", deploy))).containsEntry("error", "Authorization error occurred.");
    }

    @Test
    void aFunctionOutsideTheRightsIsRefusedAndNothingIsPublished() {
        String token = login("deploy", "pw-deploy");

        assertThat(publish("web*", "cmd.run", Map.of("token", token), "deploy")).containsEntry("error", "Authorization error occurred.");
        assertThat(master.jobs().jobsBetween(null, null)).isEmpty();
    }

    @Test
    void aTargetReachingAMinionOutsideTheRightsIsRefused() {
        String token = login("deploy", "pw-deploy");

        assertThat(publish("*", "test.ping", Map.of("token", token), "deploy")).containsEntry("error", "Authorization error occurred.");
        assertThat(publish("L@web1,db1", "test.ping", Map.of("token", token), "deploy"))
                .containsEntry("error", "Authorization error occurred.");
        assertThat(master.jobs().jobsBetween(null, null)).isEmpty();
    }

    @Test
    void aTargetThatMatchesNoMinionIsRefusedEvenForAFunctionAllowedEverywhere() {
        String token = login("thatch", "pw-thatch");

        assertThat(publish("nobody*", "test.ping", Map.of("token", token), "thatch"))
                .containsEntry("error", "Authorization error occurred.");
        assertThat(master.jobs().jobsBetween(null, null)).isEmpty();
        assertThat(publish("db1", "test.ping", Map.of("token", token), "thatch")).doesNotContainKey("error");
    }

    @Test
    void inlineCredentialsInThePublishKwargsAreCheckedAsSaltsLocalClientSendsThem() {
        Map<String, Object> creds = Map.of("eauth", "file", "username", "thatch", "password", "pw-thatch");
        Map<String, Object> reply = publish("db1", "test.ping", creds, "thatch");
        assertThat(reply).doesNotContainKey("error");
        assertThat(master.jobs().job(Wire.string(reply, "jid")).orElseThrow().user()).isEqualTo("thatch");

        Map<String, Object> wrong = Map.of("eauth", "file", "username", "thatch", "password", "nope");
        assertThat(publish("db1", "test.ping", wrong, "thatch")).containsEntry("error", "Authentication failure of type \"eauth\" occurred.");
    }

    @Test
    void aBackendThatIsNotConfiguredGivesNoTokenAndNoPublish() {
        Map<String, Object> load = new LinkedHashMap<>(Map.of("cmd", "mk_token", "eauth", "pam", "username", "thatch", "password", "pw-thatch"));
        assertThat(call(load)).containsEntry("error", "Authentication failure of type \"eauth\" occurred.");
        Map<String, Object> creds = Map.of("eauth", "pam", "username", "thatch", "password", "pw-thatch");
        assertThat(publish("db1", "test.ping", creds, "thatch")).containsKey("error");
        assertThat(master.jobs().jobsBetween(null, null)).isEmpty();
    }

    @Test
    void anArgumentConditionIsCheckedOnTheMasterBeforeAnythingIsPublished() {
        String token = login("lister", "pw-lister");

        assertThat(publish("web*", "cmd.run", List.of("rm -rf /srv"), Map.of("token", token), "lister"))
                .containsEntry("error", "Authorization error occurred.");
        assertThat(publish("web*", "cmd.run", List.of("ls /srv", "/root", "", "root"), Map.of("token", token), "lister"))
                .containsEntry("error", "Authorization error occurred.");
        assertThat(publish("web*", "cmd.run", List.of(), Map.of("token", token), "lister"))
                .containsEntry("error", "Authorization error occurred.");
        assertThat(master.jobs().jobsBetween(null, null)).isEmpty();

        Map<String, Object> allowed = publish("web*", "cmd.run", List.of("ls /srv"), Map.of("token", token), "lister");
        assertThat(allowed).doesNotContainKey("error");
        assertThat(master.jobs().job(Wire.string(allowed, "jid")).orElseThrow().arg()).containsExactly("ls /srv");
    }

    @Test
    void theMasterDecidesWhichEventsAUserMayReadTheirOwnJobsOnly() throws Exception {
        String deploy = login("deploy", "pw-deploy");
        String thatch = login("thatch", "pw-thatch");
        String ops = login("ops", "pw-ops");
        String own = Wire.string(publish("web*", "test.ping", Map.of("token", deploy), "deploy"), "jid");
        String others = Wire.string(publish("db1", "test.ping", Map.of("token", thatch), "thatch"), "jid");
        String runnerJid = Wire.string(call(runner("jobs.list_jobs", ops)), "jid");

        assertThat(eventAccess(deploy, null)).containsEntry("name", "deploy").containsEntry("all", false);
        assertThat(eventAccess(deploy, "salt/job/" + own + "/new")).containsEntry("readable", true);
        assertThat(eventAccess(deploy, "salt/job/" + own + "/ret/web1")).containsEntry("readable", true);
        assertThat(eventAccess(deploy, "salt/job/" + others + "/ret/db1")).containsEntry("readable", false);
        // the publish's announcement under the bare jid follows the job
        assertThat(eventAccess(deploy, own)).containsEntry("readable", true);
        assertThat(eventAccess(deploy, others)).containsEntry("readable", false);
        assertThat(eventAccess(deploy, "salt/auth")).containsEntry("readable", false);
        assertThat(eventAccess(deploy, "salt/run/" + runnerJid + "/ret")).containsEntry("readable", false);
        assertThat(eventAccess(ops, "salt/run/" + runnerJid + "/ret")).containsEntry("readable", true);
        assertThat(eventAccess("ab".repeat(32), null)).containsEntry("error", "Authentication failure of type \"token\" occurred.");

        // eauth_events: all restores salt-api's whole bus for every token (the master re-reads its file)
        Path file = config.configDir().resolve("master");
        Files.writeString(file, Files.readString(file) + "eauth_events: all\n");
        assertThat(eventAccess(deploy, null)).containsEntry("all", true);
        assertThat(eventAccess(deploy, "salt/job/" + others + "/ret/db1")).containsEntry("readable", true);
    }

    private Map<String, Object> eventAccess(String token, String tag) {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "event_access");
        load.put("token", token);
        if (tag != null) {
            load.put("tag", tag);
        }
        return call(load);
    }

    @Test
    void theMastersOwnLoginLimitStopsGuessingOnTheRequestPortWithoutTheApi() {
        for (int i = 0; i < 10; i++) {
            assertThat(call(mkToken("thatch", "guess-" + i, null))).containsEntry("error", "Authentication failure of type \"eauth\" occurred.");
        }
        // the right password no longer helps, by token or inline on a publish: the password is not even checked
        assertThat(call(mkToken("thatch", "pw-thatch", null))).containsEntry("error", "Too many failed logins: try again later");
        assertThat(publish("db1", "test.ping", Map.of("eauth", "file", "username", "thatch", "password", "pw-thatch"), "thatch"))
                .containsEntry("error", "Too many failed logins: try again later");
        assertThat(master.jobs().jobsBetween(null, null)).isEmpty();
    }

    @Test
    void anAddressTheApiVouchesForIsLimitedOnItsOwnAndAForgedOneCountsAsDirect() throws Exception {
        String key = ClientKey.read(config.cachedir(), System.getProperty("user.name"));
        Map<String, Object> vouched = Map.of("address", "192.0.2.7", "key", key);
        for (int i = 0; i < 10; i++) {
            // ten names from one address: no name reaches its own limit
            call(mkToken("user" + i, "guess", vouched));
        }
        assertThat(call(mkToken("deploy", "pw-deploy", vouched))).containsEntry("error", "Too many failed logins: try again later");
        assertThat(call(mkToken("deploy", "pw-deploy", Map.of("address", "192.0.2.8", "key", key)))).containsEntry("name", "deploy");
        // a client without the key cannot pick an address: it counts as a direct client
        for (int i = 0; i < 10; i++) {
            call(mkToken("other" + i, "guess", Map.of("address", "198.51.100." + i, "key", "forged")));
        }
        assertThat(call(mkToken("ops", "pw-ops", Map.of("address", "198.51.100.99", "key", "forged"))))
                .containsEntry("error", "Too many failed logins: try again later");
    }

    private static Map<String, Object> mkToken(String user, String password, Map<String, Object> source) {
        Map<String, Object> load = new LinkedHashMap<>(Map.of("cmd", "mk_token", "eauth", "file", "username", user, "password", password));
        if (source != null) {
            load.put("source", source);
        }
        return load;
    }

    @Test
    void aRevokedTokenIsRefused() {
        String token = login("thatch", "pw-thatch");
        assertThat(call(Map.of("cmd", "get_token", "token", token))).containsEntry("name", "thatch").containsEntry("eauth", "file");

        assertThat(call(Map.of("cmd", "rm_token", "token", token))).containsEntry("revoked", true);

        assertThat(call(Map.of("cmd", "get_token", "token", token))).containsKey("error");
        assertThat(publish("db1", "test.ping", Map.of("token", token), "thatch"))
                .containsEntry("error", "Authentication failure of type \"token\" occurred.");
        assertThat(master.jobs().jobsBetween(null, null)).isEmpty();
    }

    @Test
    void anExpiredTokenIsRefusedAndItsFileDeleted() throws Exception {
        String token = login("thatch", "pw-thatch");
        Path file = root.resolve("var/cache/jsalt/master/tokens").resolve(token);
        Map<String, Object> data = new LinkedHashMap<>(Wire.asMap(SaltPack.unpack(Files.readAllBytes(file))));
        data.put("expire", System.currentTimeMillis() / 1000.0); // dies now: the boundary itself is refused
        Files.write(file, SaltPack.pack(data));

        assertThat(publish("db1", "test.ping", Map.of("token", token), "thatch"))
                .containsEntry("error", "Authentication failure of type \"token\" occurred.");
        assertThat(file).doesNotExist();
    }

    @Test
    void aUserDeletedFromTheUsersFileLosesTheirTokens() throws Exception {
        String token = login("thatch", "pw-thatch");
        Files.writeString(users, "deploy:pw-deploy\nops:pw-ops\n");

        assertThat(publish("db1", "test.ping", Map.of("token", token), "thatch"))
                .containsEntry("error", "Authentication failure of type \"token\" occurred.");
        assertThat(call(Map.of("cmd", "get_token", "token", token))).containsKey("error");
    }

    @Test
    void runnerRightsAreCheckedOnTheMasterToo() {
        String ops = login("ops", "pw-ops");
        String thatch = login("thatch", "pw-thatch");

        Map<String, Object> allowed = call(runner("jobs.list_jobs", ops));
        assertThat(allowed).containsEntry("success", true);
        assertThat(call(runner("jobs.list_jobs", thatch)))
                .containsEntry("error", "Authentication failure of type \"token\" occurred for user thatch.");
        assertThat(call(Map.of("cmd", "wheel", "fun", "key.list_all", "token", ops)))
                .containsEntry("error", "Authentication failure of type \"token\" occurred for user ops.");
    }

    @Test
    void tokensAreFilesOnlyTheMastersUserReadsAndATokenNeverNamesAPath() throws Exception {
        String token = login("thatch", "pw-thatch");
        Path dir = root.resolve("var/cache/jsalt/master/tokens");
        assertThat(token).matches("[0-9a-f]{64}");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(token)))).isEqualTo("rw-------");
        Files.writeString(root.resolve("var/cache/jsalt/master/" + "a".repeat(64)), "not a token");

        assertThat(call(Map.of("cmd", "get_token", "token", "../" + "a".repeat(64)))).containsKey("error");
        assertThat(call(Map.of("cmd", "rm_token", "token", "../" + "a".repeat(64)))).containsEntry("revoked", false);
        assertThat(root.resolve("var/cache/jsalt/master/" + "a".repeat(64))).exists();
    }

    @Test
    void hookEventsNeedTheRootKeyAndStayUnderTheHookPrefix() throws Exception {
        String key = io.jsalt.master.request.ClientKey.read(root.resolve("var/cache/jsalt/master"), System.getProperty("user.name"));
        String token = login("ops", "pw-ops");
        assertThat(call(Map.of("cmd", "fire_hook", "path", "ci", "token", token))).containsEntry("error", "Authentication error occurred.");
        assertThat(call(Map.of("cmd", "fire_hook", "path", "../../salt/auth", "key", key))).containsEntry("error", "invalid hook path");
        assertThat(call(Map.of("cmd", "fire_hook", "path", "a/../b", "key", key))).containsEntry("error", "invalid hook path");
        assertThat(call(Map.of("cmd", "fire_hook", "path", "ci/build", "key", key, "data", Map.of("x", 1)))).containsEntry("success", true);
    }

    private String login(String user, String password) {
        Map<String, Object> reply = call(Map.of("cmd", "mk_token", "eauth", "file", "username", user, "password", password));
        assertThat(reply).containsEntry("name", user).doesNotContainKey("error");
        return Wire.string(reply, "token");
    }

    private Map<String, Object> publish(String tgt, String fun, Map<String, Object> creds, String user) {
        return publish(tgt, fun, List.of(), creds, user);
    }

    private Map<String, Object> publish(String tgt, String fun, List<Object> arg, Map<String, Object> creds, String user) {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "publish");
        load.put("tgt", tgt);
        load.put("fun", fun);
        load.put("arg", arg);
        load.put("tgt_type", tgt.startsWith("L@") ? "compound" : "glob");
        load.put("ret", "");
        load.put("jid", "");
        load.put("user", user);
        load.put("key", "");
        load.put("kwargs", creds);
        return call(load);
    }

    private static Map<String, Object> runner(String fun, String token) {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "runner");
        load.put("fun", fun);
        load.put("token", token);
        return load;
    }

    private Map<String, Object> call(Map<String, Object> load) {
        byte[] reply = client.request(RequestEnvelope.clear(load).encode(), WAIT);
        return Wire.map(Wire.asMap(SaltPack.unpack(reply)), "load");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
